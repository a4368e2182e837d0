/** Registers `<tour-live-panel>` (the lazily loaded live chunk's entry; the class has no side effects). */
import { TourLivePanel } from './live-panel.component.js';

export { TourLivePanel };
if (!customElements.get('tour-live-panel')) customElements.define('tour-live-panel', TourLivePanel);

declare global {
  interface HTMLElementTagNameMap {
    'tour-live-panel': TourLivePanel;
  }
}
