import type { Drawer } from './drawer.js';

export interface Editor {
  drawer: Drawer;
}
