import { TourPlayer } from './tour-player.component.js';

export { TourPlayer };
if (!customElements.get('tour-player')) customElements.define('tour-player', TourPlayer);

declare global {
  interface HTMLElementTagNameMap {
    'tour-player': TourPlayer;
  }
}
