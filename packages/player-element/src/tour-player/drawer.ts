import { html } from 'lit';
import type { Marker } from '../api/types.js';
import type { MarkersController } from '../controllers/markers-controller.js';
import type { PlayheadController } from '../controllers/playhead-controller.js';
import type { PlayerContext } from '../store/player-context.js';
import '../markers-drawer/markers-drawer.js';

type Notice = CustomEvent<{ message: string; variant: 'success' | 'warning' | 'error' | 'info' }>;

/**
 * The Fast Travel drawer: it sends requests up; the markers controller and the playhead answer them, state comes back
 * down.
 */
export function renderDrawer(
  ctx: PlayerContext,
  m: MarkersController,
  playhead: PlayheadController,
  o: { markers: Marker[]; frame: number; loaded: number; editable: boolean; superAdmin: boolean },
) {
  const { store } = ctx;
  return html`<tour-markers-drawer part="drawer" .markers=${o.markers} .frame=${o.frame} .loadedFrames=${o.loaded}
    .travelling=${store.travelling.value} .editable=${o.editable} .superAdmin=${o.superAdmin}
    .savingIds=${m.savingIds} .deletingIds=${m.deletingIds} .addState=${m.addState} .ai=${m.ai}
    @tour-marker-jump-request=${(e: CustomEvent<{ marker: Marker }>) => {
      e.stopPropagation();
      const f = e.detail.marker.frameIndex;
      if (f < store.loadedFrames.peek() && !store.travelling.peek()) playhead.travelFromInput(f, 'marker');
    }}
    @tour-marker-add-request=${(e: CustomEvent<{ name: string; custom: boolean }>) => void m.add(e.detail.name, e.detail.custom)}
    @tour-marker-rename-request=${(e: CustomEvent<{ marker: Marker; name: string }>) => void m.rename(e.detail.marker, e.detail.name)}
    @tour-marker-delete-request=${(e: CustomEvent<{ marker: Marker }>) => void m.remove(e.detail.marker)}
    @tour-ai-markers-request=${() => void m.generate()}
    @tour-notice=${(e: Notice) => {
      if (e.target === ctx.host) return;
      e.stopPropagation();
      ctx.showNotice(e.detail.message, e.detail.variant);
    }}></tour-markers-drawer>`;
}
