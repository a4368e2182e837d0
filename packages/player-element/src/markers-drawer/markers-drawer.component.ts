import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { PLAYER, PREDEFINED_MARKER_NAMES } from '@roomwalk/shared/constants';
import { PLAYER_VALIDATION as VALIDATION } from '@roomwalk/shared/player-texts';
import { emit } from '../events/events.js';
import type { Marker } from '../api/types.js';

export type AddState = 'idle' | 'adding' | 'addingCustom';
export interface AIProgress {
  active: boolean;
  progress: number;
  added: Marker[];
  removed: Marker[];
}

const EMPTY_EDITOR = 'Add location markers for your viewers to teleport through your property.';
const EMPTY_VIEWER = 'No markers created yet';

/** Sorted by frameIndex, the marker within 0.5 frame of `frame` is the active one (tours §2). */
export function sortMarkers(markers: readonly Marker[]): Marker[] {
  return [...markers].sort((a, b) => a.frameIndex - b.frameIndex);
}
export function activeMarkerAt(markers: readonly Marker[], frame: number): Marker | null {
  return markers.find((m) => Math.abs(m.frameIndex - frame) <= PLAYER.activeMarkerTolerance) ?? null;
}

// Inline line icons (no emoji font needed; they take the text colour): a pencil and a bin.
const PENCIL_ICON = html`<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d="M11 2l3 3-8 8H3v-3zM9 4l3 3"/></svg>`;
const TRASH_ICON = html`<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d="M2 4h12M6 4V2h4v2M4 4l1 10h6l1-10M7 7v4M9 7v4"/></svg>`;

/**
 * The Fast Travel drawer: lists markers, and in edit mode adds, renames and deletes them.
 * It never changes the tour itself: it dispatches `tour-*-request` events and the player
 * passes the resulting state back down.
 *
 * @tagname tour-markers-drawer
 * @fires {CustomEvent<{ marker: Marker }>} tour-marker-jump-request - A marker was chosen (the player fast-travels).
 * @fires {CustomEvent<{ name: string; custom: boolean }>} tour-marker-add-request - Add a marker at the current frame (edit mode).
 * @fires {CustomEvent<{ marker: Marker; name: string }>} tour-marker-rename-request - Rename a marker (edit mode).
 * @fires {CustomEvent<{ marker: Marker }>} tour-marker-delete-request - Delete a marker (edit mode).
 * @fires {CustomEvent<Record<string, never>>} tour-ai-markers-request - Auto generate with AI (super admin, edit mode).
 * @fires {CustomEvent<{ message: string; variant: 'success' | 'warning' | 'error' | 'info' }>} tour-notice - A notice for the player to show.
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
    editing: { state: true, attribute: false },
    draft: { state: true, attribute: false },
    confirmDelete: { state: true, attribute: false },
    adding: { state: true, attribute: false },
    custom: { state: true, attribute: false },
    customName: { state: true, attribute: false },
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
  declare private editing: string | null;
  declare private draft: string;
  declare private confirmDelete: string | null;
  declare private adding: boolean;
  declare private custom: boolean;
  declare private customName: string;
  declare private leaving: Marker[];
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
    this.editing = null;
    this.draft = '';
    this.confirmDelete = null;
    this.adding = false;
    this.custom = false;
    this.customName = '';
    this.leaving = [];
  }

  static override styles = css`
    :host { display: flex; flex-direction: column; background: rgba(20, 20, 20, 0.85); color: #fff; font: 14px system-ui, sans-serif; border-radius: 8px; overflow: hidden; }
    .heading { margin: 0; font-size: 14px; display: flex; align-items: center; justify-content: space-between; padding: 8px 10px; font-weight: 600; }
    ul { list-style: none; margin: 0; padding: 0 6px 6px; overflow: auto; flex: 1; }
    li { display: flex; align-items: center; gap: 4px; margin: 2px 0; border-radius: 6px; }
    li.entering { animation: row-in 0.3s ease-out; }
    li.leaving { animation: row-out 0.3s ease-in forwards; }
    @keyframes row-in { from { opacity: 0; transform: translateX(20px); } to { opacity: 1; transform: none; } }
    @keyframes row-out { to { opacity: 0; transform: translateX(-20px); height: 0; } }
    button { font: inherit; color: inherit; background: rgba(255,255,255,.08); border: 0; border-radius: 6px; padding: 6px 8px; cursor: pointer; }
    button[disabled] { opacity: 0.45; cursor: not-allowed; }
    .jump { flex: 1; text-align: left; }
    button.icon { display: inline-grid; place-items: center; min-width: 32px; min-height: 32px; padding: 6px; }
    button.icon svg { width: 16px; height: 16px; fill: none; stroke: currentColor; stroke-width: 1.5; stroke-linecap: round; stroke-linejoin: round; pointer-events: none; }
    li[data-active] .jump { background: #1565c0; }
    li[data-origin='added'] .jump::after { content: ' (added)'; opacity: .7; }
    li[data-origin='removed'] .jump { text-decoration: line-through; }
    .empty { padding: 10px; opacity: 0.85; }
    input { font: inherit; flex: 1; min-width: 0; padding: 4px 6px; border-radius: 4px; border: 1px solid #888; }
    .add { padding: 6px 10px; display: flex; flex-direction: column; gap: 6px; }
    .names { display: flex; flex-wrap: wrap; gap: 4px; max-height: 140px; overflow: auto; }
    .progress { height: 4px; background: rgba(255,255,255,.2); border-radius: 2px; overflow: hidden; }
    .progress > div { height: 100%; background: #1565c0; }
    .progress.indeterminate > div { width: 30%; animation: indet 1.2s linear infinite; }
    @keyframes indet { from { transform: translateX(-100%); } to { transform: translateX(350%); } }
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
    if (changed.has('savingIds') && this.editing && !this.savingIds.has(this.editing) && (changed.get('savingIds') as Set<string> | undefined)?.has(this.editing)) {
      this.editing = null;
    }
    if (changed.has('deletingIds') && this.confirmDelete && !this.deletingIds.has(this.confirmDelete) && (changed.get('deletingIds') as Set<string> | undefined)?.has(this.confirmDelete)) {
      this.confirmDelete = null;
    }
    if (changed.has('addState') && this.addState === 'idle' && changed.get('addState') && changed.get('addState') !== 'idle') {
      this.adding = false;
      this.custom = false;
      this.customName = '';
    }
  }

  private notice(message: string, variant: 'warning' | 'info'): void {
    emit(this, 'tour-notice', { message, variant });
  }

  private rows(): { marker: Marker; origin: 'existed' | 'added' | 'removed'; leaving: boolean }[] {
    // Markers from three sources are merged by id (tours §3).
    const byId = new Map<string, { marker: Marker; origin: 'existed' | 'added' | 'removed'; leaving: boolean }>();
    for (const m of this.markers) byId.set(m.id, { marker: m, origin: 'existed', leaving: false });
    if (this.ai.active) {
      for (const m of this.ai.added) if (!byId.has(m.id)) byId.set(m.id, { marker: m, origin: 'added', leaving: false });
      for (const m of this.ai.removed) byId.set(m.id, { marker: byId.get(m.id)?.marker ?? m, origin: 'removed', leaving: false });
    }
    for (const m of this.leaving) if (!byId.has(m.id)) byId.set(m.id, { marker: m, origin: 'existed', leaving: true });
    return [...byId.values()].sort((a, b) => a.marker.frameIndex - b.marker.frameIndex);
  }

  private startEdit(m: Marker): void {
    this.editing = m.id;
    this.draft = m.name;
    this.confirmDelete = null;
  }

  private saveEdit(m: Marker): void {
    const name = this.draft.trim();
    if (!name) return this.notice(VALIDATION.markerNameEmpty, 'warning');
    if (name === m.name) return this.notice(VALIDATION.noChanges, 'info');
    emit(this, 'tour-marker-rename-request', { marker: m, name });
  }

  private addCustom(): void {
    const name = this.customName.trim();
    if (!name) return this.notice(VALIDATION.markerNameRequired, 'warning');
    emit(this, 'tour-marker-add-request', { name, custom: true });
  }

  private renderRow(r: { marker: Marker; origin: string; leaving: boolean }) {
    const m = r.marker;
    const active = Math.abs(m.frameIndex - this.frame) <= PLAYER.activeMarkerTolerance;
    const disabled = m.frameIndex >= this.loadedFrames || this.travelling || r.origin === 'removed';
    const cls = r.leaving ? 'leaving' : this.entering.has(m.id) ? 'entering' : '';
    const saving = this.savingIds.has(m.id);
    const deleting = this.deletingIds.has(m.id);
    if (this.editable && this.editing === m.id && !r.leaving) {
      return html`<li part="row" class=${cls} data-id=${m.id} data-state=${saving ? 'editing' : 'edit'}>
        <input aria-label="Marker name" .value=${this.draft} ?disabled=${saving}
          @input=${(e: Event) => (this.draft = (e.target as HTMLInputElement).value)}
          @keydown=${(e: KeyboardEvent) => e.key === 'Enter' && this.saveEdit(m)} />
        <button class="save" ?disabled=${saving} @click=${() => this.saveEdit(m)}>${saving ? 'Saving…' : 'Save'}</button>
        <button class="cancel" ?disabled=${saving} @click=${() => (this.editing = null)}>Cancel</button>
      </li>`;
    }
    if (this.editable && this.confirmDelete === m.id && !r.leaving) {
      return html`<li part="row" class=${cls} data-id=${m.id} data-state=${deleting ? 'deleting' : 'delete'}>
        <span class="jump">Delete ${m.name}?</span>
        <button class="confirm-delete" ?disabled=${deleting} @click=${() => emit(this, 'tour-marker-delete-request', { marker: m })}>${deleting ? 'Deleting…' : 'Delete'}</button>
        <button class="cancel" ?disabled=${deleting} @click=${() => (this.confirmDelete = null)}>Cancel</button>
      </li>`;
    }
    return html`<li part="row" class=${cls} data-id=${m.id} data-state="view" data-origin=${r.origin} ?data-active=${active}
        @animationend=${(e: AnimationEvent) => this.onAnimationEnd(e, m.id, r.leaving)}>
      <button class="jump" aria-current=${active ? 'location' : 'false'} ?disabled=${disabled}
        @click=${() => emit(this, 'tour-marker-jump-request', { marker: m })}>${m.name}</button>
      ${
        this.editable && !r.leaving && r.origin === 'existed'
          ? html`<button class="edit icon" aria-label="Rename ${m.name}" @click=${() => this.startEdit(m)}>${PENCIL_ICON}</button>
            <button class="delete icon" aria-label="Delete ${m.name}" @click=${() => {
              this.confirmDelete = m.id;
              this.editing = null;
            }}>${TRASH_ICON}</button>`
          : nothing
      }
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

  private renderAdd() {
    const busy = this.addState !== 'idle';
    if (!this.adding) {
      return html`<div class="add"><button class="add-open" ?disabled=${busy} @click=${() => (this.adding = true)}>Add</button>
        ${this.superAdmin ? this.renderAI() : nothing}</div>`;
    }
    return html`<div class="add" role="dialog" aria-label="Add Marker">
      <button class="toggle-custom" ?disabled=${busy} @click=${() => (this.custom = !this.custom)}>${this.custom ? 'Cancel' : 'New'}</button>
      ${
        this.custom
          ? html`<div style="display:flex;gap:4px">
            <input placeholder="Enter new marker name" aria-label="Marker name" .value=${this.customName} ?disabled=${busy}
              @input=${(e: Event) => (this.customName = (e.target as HTMLInputElement).value)}
              @keydown=${(e: KeyboardEvent) => e.key === 'Enter' && this.addCustom()} />
            <button class="add-custom" ?disabled=${busy} @click=${() => this.addCustom()}>${this.addState === 'addingCustom' ? 'Adding…' : 'Add'}</button>
          </div>`
          : nothing
      }
      <div class="names" role="list">
        ${PREDEFINED_MARKER_NAMES.map(
          (n) => html`<button role="listitem" class="predefined" ?disabled=${busy} @click=${() => emit(this, 'tour-marker-add-request', { name: n, custom: false })}>${n}</button>`,
        )}
      </div>
      <button class="add-close" ?disabled=${busy} @click=${() => (this.adding = false)}>Close</button>
    </div>`;
  }

  private renderAI() {
    if (this.ai.active) {
      const determinate = this.ai.progress > 0;
      return html`<div class="ai" role="status">Generating with AI ${determinate ? html`${Math.round(this.ai.progress)}%` : nothing}
        <div class="progress ${determinate ? '' : 'indeterminate'}" role="progressbar" aria-label="Generating with AI"
          aria-valuemin="0" aria-valuemax="100" aria-valuenow=${determinate ? Math.round(this.ai.progress) : nothing}>
          <div style=${determinate ? `width:${this.ai.progress}%` : ''}></div></div></div>`;
    }
    return html`<button class="ai-generate" @click=${() => emit(this, 'tour-ai-markers-request', {})}>Auto generate with AI (beta)</button>`;
  }

  protected override render() {
    const rows = this.rows();
    return html`<h2 class="heading">Fast Travel</h2>
      ${rows.length ? html`<ul part="list" aria-label="Markers">${rows.map((r) => this.renderRow(r))}</ul>` : html`<p class="empty">${this.editable ? EMPTY_EDITOR : EMPTY_VIEWER}</p>`}
      ${this.editable ? this.renderAdd() : nothing}`;
  }
}
