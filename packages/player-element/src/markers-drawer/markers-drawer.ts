import { TourMarkersDrawer } from './markers-drawer.component.js';

export { TourMarkersDrawer };
if (!customElements.get('tour-markers-drawer')) customElements.define('tour-markers-drawer', TourMarkersDrawer);

declare global {
  interface HTMLElementTagNameMap {
    'tour-markers-drawer': TourMarkersDrawer;
  }
}
