import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { PLAYER } from '@roomwalk/shared/constants';
import { emit } from '../events/events.js';
import type { Marker } from '../api/types.js';
import { editingModule, loadEditing } from '../editing/editing.js';
import type { DrawerEditor } from '../editing/drawer-editor.js';
import type { AddState, AIProgress, DrawerRow } from '../markers/markers.js';

const EMPTY_EDITOR = 'Add location markers for your viewers to teleport through your property.';
const EMPTY_VIEWER = 'No markers created yet';

/**
 * The Fast Travel drawer: lists markers, and in edit mode adds, renames and deletes them.
 * It never changes the tour itself: it dispatches `tour-*-request` events and the player
 * passes the resulting state back down. The edit UI (`editing/drawer-editor.ts`) is in the
 * editing chunk, loaded when the drawer first becomes editable.
 *
 * @tagname tour-markers-drawer
 * @fires {CustomEvent<{ marker: Marker }>} tour-marker-jump-request - A marker was chosen (the player fast-travels).
 * @fires {CustomEvent<{ name: string; custom: boolean }>} tour-marker-add-request - Add a marker at the current frame
 * (edit mode).
 * @fires {CustomEvent<{ marker: Marker; name: string }>} tour-marker-rename-request - Rename a marker (edit mode).
 * @fires {CustomEvent<{ marker: Marker }>} tour-marker-delete-request - Delete a marker (edit mode).
 * @fires {CustomEvent<Record<string, never>>} tour-ai-markers-request - Auto generate with AI (super admin, edit mode).
 * @fires {CustomEvent<{ message: string; variant: 'success' | 'warning' | 'error' | 'info' }>} tour-notice - A notice
 * for the player to show.
 * @csspart list - The list of markers.
 * @csspart row - One marker row.
 */
export class TourMarkersDrawer extends LitElement {
  static override properties = {
    markers: { attribute: false },
    frame: { type: Number },
    loadedFrames: { type: Number, attribute: 'loaded-frames' },
    travelling: { type: Boolean },
    editable: { type: Boolean },
    superAdmin: { type: Boolean, attribute: 'super-admin' },
    savingIds: { attribute: false },
    deletingIds: { attribute: false },
    addState: { attribute: false },
    ai: { attribute: false },
    leaving: { state: true, attribute: false },
  };

  declare markers: Marker[];
  declare frame: number;
  declare loadedFrames: number;
  declare travelling: boolean;
  declare editable: boolean;
  declare superAdmin: boolean;
  declare savingIds: ReadonlySet<string>;
  declare deletingIds: ReadonlySet<string>;
  declare addState: AddState;
  declare ai: AIProgress;
  declare private leaving: Marker[];
  private editor: DrawerEditor | undefined;
  private entering = new Set<string>();
  private known = new Set<string>();

  constructor() {
    super();
    this.markers = [];
    this.frame = 0;
    this.loadedFrames = 0;
    this.travelling = false;
    this.editable = false;
    this.superAdmin = false;
    this.savingIds = new Set();
    this.deletingIds = new Set();
    this.addState = 'idle';
    this.ai = { active: false, progress: 0, added: [], removed: [] };
    this.leaving = [];
  }

  // The edit UI's styles (inputs, icon buttons, the add panel, AI progress) come with it: editing/drawer-editor.ts.
  static override styles = css`
    :host { display: flex; flex-direction: column; background: rgba(20, 20, 20, 0.85); color: #fff; font: 14px system-ui, sans-serif; border-radius: 8px; overflow: hidden; }
    .heading { margin: 0; font-size: 14px; display: flex; align-items: center; justify-content: space-between; padding: 8px 10px; font-weight: 600; }
    ul { list-style: none; margin: 0; padding: 0 6px 6px; overflow: auto; flex: 1; }
    li { display: flex; align-items: center; gap: 4px; margin: 2px 0; border-radius: 6px; }
    li.entering { animation: row-in 0.3s ease-out; }
    li.leaving { animation: row-out 0.3s ease-in forwards; }
    @keyframes row-in { from { opacity: 0; transform: translateX(20px); } to { opacity: 1; transform: none; } }
    @keyframes row-out { to { opacity: 0; transform: translateX(-20px); height: 0; } }
    /* Asked for less motion: a row comes and goes at once, not sliding or fading (caught mid-fade, its text has no
       contrast); its animation still ends, so a leaving row still goes. */
    @media (prefers-reduced-motion: reduce) { li.entering, li.leaving { animation-duration: 1ms; } }
    button { font: inherit; color: inherit; background: rgba(255,255,255,.08); border: 0; border-radius: 6px; padding: 6px 8px; cursor: pointer; }
    button[disabled] { opacity: 0.45; cursor: not-allowed; }
    .jump { flex: 1; text-align: left; }
    li[data-active] .jump { background: #1565c0; }
    li[data-active] .jump[disabled] { opacity: 1; }
    li[data-origin='added'] .jump::after { content: ' (added)'; opacity: .7; }
    li[data-origin='removed'] .jump { text-decoration: line-through; }
    .empty { padding: 10px; opacity: 0.85; }
  `;

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('markers')) {
      const ids = new Set(this.markers.map((m) => m.id));
      if (this.known.size) {
        for (const id of ids) if (!this.known.has(id)) this.entering.add(id);
        const prev = (changed.get('markers') as Marker[] | undefined) ?? [];
        const gone = prev.filter((m) => !ids.has(m.id));
        if (gone.length) this.leaving = [...this.leaving, ...gone];
      }
      this.known = ids;
    }
    if (this.editable && !this.editor) {
      const m = editingModule();
      if (m) this.editor = new m.DrawerEditor(this);
      else
        void loadEditing().then(
          () => this.requestUpdate(),
          () => undefined,
        );
    }
    this.editor?.willUpdate(changed);
  }

  private rows(): DrawerRow[] {
    // Markers from three sources are merged by id.
    const byId = new Map<string, DrawerRow>();
    for (const m of this.markers) byId.set(m.id, { marker: m, origin: 'existed', leaving: false });
    if (this.ai.active) {
      for (const m of this.ai.added)
        if (!byId.has(m.id)) byId.set(m.id, { marker: m, origin: 'added', leaving: false });
      for (const m of this.ai.removed)
        byId.set(m.id, { marker: byId.get(m.id)?.marker ?? m, origin: 'removed', leaving: false });
    }
    for (const m of this.leaving) if (!byId.has(m.id)) byId.set(m.id, { marker: m, origin: 'existed', leaving: true });
    return [...byId.values()].sort((a, b) => a.marker.frameIndex - b.marker.frameIndex);
  }

  private renderRow(r: DrawerRow) {
    const m = r.marker;
    const active = Math.abs(m.frameIndex - this.frame) <= PLAYER.activeMarkerTolerance;
    const disabled = m.frameIndex >= this.loadedFrames || this.travelling || r.origin === 'removed';
    const cls = r.leaving ? 'leaving' : this.entering.has(m.id) ? 'entering' : '';
    const editor = this.editable && !r.leaving ? this.editor : undefined;
    const editRow = editor?.renderRow(r, cls);
    if (editRow) return editRow;
    return html`<li part="row" class=${cls} data-id=${m.id} data-state="view" data-origin=${r.origin} ?data-active=${active}
        @animationend=${(e: AnimationEvent) => this.onAnimationEnd(e, m.id, r.leaving)}>
      <button class="jump" aria-current=${active ? 'location' : 'false'} ?disabled=${disabled}
        @click=${() => emit(this, 'tour-marker-jump-request', { marker: m })}>${m.name}</button>
      ${editor && r.origin === 'existed' ? editor.renderButtons(m) : nothing}
    </li>`;
  }

  private onAnimationEnd(e: AnimationEvent, id: string, leaving: boolean): void {
    if (e.animationName === 'row-in') {
      this.entering.delete(id);
      (e.currentTarget as HTMLElement).classList.remove('entering');
    } else if (leaving) {
      this.leaving = this.leaving.filter((m) => m.id !== id);
    }
  }

  protected override render() {
    const rows = this.rows();
    return html`<h2 class="heading">Fast Travel</h2>
      ${rows.length ? html`<ul part="list" aria-label="Markers">${rows.map((r) => this.renderRow(r))}</ul>` : html`<p class="empty">${this.editable ? EMPTY_EDITOR : EMPTY_VIEWER}</p>`}
      ${this.editable ? (this.editor?.renderAdd() ?? nothing) : nothing}`;
  }
}
