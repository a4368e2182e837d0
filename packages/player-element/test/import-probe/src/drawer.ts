// Probe for src/import-rules.unit.test.ts: a drawer and an editor that import each other's types (a circle).
import type { Editor } from './editor.js';

export interface Drawer {
  editor: Editor;
}
