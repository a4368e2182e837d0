import { adoptStyles, css, html, type LitElement, nothing, type PropertyValues } from 'lit';
import { PREDEFINED_MARKER_NAMES } from '@roomwalk/shared/constants';
import { PLAYER_VALIDATION as VALIDATION } from '@roomwalk/shared/player-texts';
import { emit } from '../events/events.js';
import type { Marker } from '../api/types.js';
import type { DrawerRow, EditableDrawer } from '../markers/markers.js';

// Inline line icons (no emoji font needed; they take the text colour): a pencil and a bin.
const PENCIL_ICON = html`<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d="M11 2l3 3-8 8H3v-3zM9 4l3 3"/></svg>`;
const TRASH_ICON = html`<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d="M2 4h12M6 4V2h4v2M4 4l1 10h6l1-10M7 7v4M9 7v4"/></svg>`;

// The edit UI's styles, added to the drawer's own when the editor is made.
const EDIT_STYLES = css`
  button.icon { display: inline-grid; place-items: center; min-width: 32px; min-height: 32px; padding: 6px; }
  button.icon svg { width: 16px; height: 16px; fill: none; stroke: currentColor; stroke-width: 1.5; stroke-linecap: round; stroke-linejoin: round; pointer-events: none; }
  input { font: inherit; flex: 1; min-width: 0; padding: 4px 6px; border-radius: 4px; border: 1px solid #888; }
  .add { padding: 6px 10px; display: flex; flex-direction: column; gap: 6px; }
  .names { display: flex; flex-wrap: wrap; gap: 4px; max-height: 140px; overflow: auto; }
  .progress { height: 4px; background: rgba(255,255,255,.2); border-radius: 2px; overflow: hidden; }
  .progress > div { height: 100%; background: #1565c0; }
  .progress.indeterminate > div { width: 30%; animation: indet 1.2s linear infinite; }
  @keyframes indet { from { transform: translateX(-100%); } to { transform: translateX(350%); } }
`;

/**
 * The Fast Travel drawer's edit UI (rename, delete, add, AI generation), in the editing chunk: the drawer makes one
 * when it becomes editable and the chunk is loaded, and asks it for the edit parts of its rows and the add panel. Its
 * state is the drawer's internal state; every change re-renders the drawer.
 */
export class DrawerEditor {
  private editing: string | null = null;
  private draft = '';
  private confirmDelete: string | null = null;
  private adding = false;
  private custom = false;
  private customName = '';

  constructor(private readonly d: EditableDrawer) {
    adoptStyles(d.renderRoot as ShadowRoot, [...(d.constructor as typeof LitElement).elementStyles, EDIT_STYLES]);
  }

  private set(
    patch: Partial<{
      editing: string | null;
      draft: string;
      confirmDelete: string | null;
      adding: boolean;
      custom: boolean;
      customName: string;
    }>,
  ): void {
    Object.assign(this, patch);
    this.d.requestUpdate();
  }

  willUpdate(changed: PropertyValues<EditableDrawer>): void {
    const d = this.d;
    if (
      changed.has('savingIds') &&
      this.editing &&
      !d.savingIds.has(this.editing) &&
      (changed.get('savingIds') as Set<string> | undefined)?.has(this.editing)
    ) {
      this.editing = null;
    }
    if (
      changed.has('deletingIds') &&
      this.confirmDelete &&
      !d.deletingIds.has(this.confirmDelete) &&
      (changed.get('deletingIds') as Set<string> | undefined)?.has(this.confirmDelete)
    ) {
      this.confirmDelete = null;
    }
    if (
      changed.has('addState') &&
      d.addState === 'idle' &&
      changed.get('addState') &&
      changed.get('addState') !== 'idle'
    ) {
      this.adding = false;
      this.custom = false;
      this.customName = '';
    }
  }

  private notice(message: string, variant: 'warning' | 'info'): void {
    emit(this.d, 'tour-notice', { message, variant });
  }

  private saveEdit(m: Marker): void {
    const name = this.draft.trim();
    if (!name) {
      this.notice(VALIDATION.markerNameEmpty, 'warning');
      return;
    }
    if (name === m.name) {
      this.notice(VALIDATION.noChanges, 'info');
      return;
    }
    emit(this.d, 'tour-marker-rename-request', { marker: m, name });
  }

  private addCustom(): void {
    const name = this.customName.trim();
    if (!name) {
      this.notice(VALIDATION.markerNameRequired, 'warning');
      return;
    }
    emit(this.d, 'tour-marker-add-request', { name, custom: true });
  }

  /** A row being renamed or confirming its deletion, else undefined (the drawer renders the plain row). */
  renderRow(r: DrawerRow, cls: string) {
    const m = r.marker;
    if (this.editing === m.id) {
      const saving = this.d.savingIds.has(m.id);
      return html`<li part="row" class=${cls} data-id=${m.id} data-state=${saving ? 'editing' : 'edit'}>
        <input aria-label="Marker name" .value=${this.draft} ?disabled=${saving}
          @input=${(e: Event) => this.set({ draft: (e.target as HTMLInputElement).value })}
          @keydown=${(e: KeyboardEvent) => e.key === 'Enter' && this.saveEdit(m)} />
        <button class="save" ?disabled=${saving} @click=${() => this.saveEdit(m)}>${saving ? 'Saving…' : 'Save'}</button>
        <button class="cancel" ?disabled=${saving} @click=${() => this.set({ editing: null })}>Cancel</button>
      </li>`;
    }
    if (this.confirmDelete === m.id) {
      const deleting = this.d.deletingIds.has(m.id);
      return html`<li part="row" class=${cls} data-id=${m.id} data-state=${deleting ? 'deleting' : 'delete'}>
        <span class="jump">Delete ${m.name}?</span>
        <button class="confirm-delete" ?disabled=${deleting} @click=${() => emit(this.d, 'tour-marker-delete-request', { marker: m })}>${deleting ? 'Deleting…' : 'Delete'}</button>
        <button class="cancel" ?disabled=${deleting} @click=${() => this.set({ confirmDelete: null })}>Cancel</button>
      </li>`;
    }
    return undefined;
  }

  /** The rename and delete buttons of a plain row. */
  renderButtons(m: Marker) {
    return html`<button class="edit icon" aria-label="Rename ${m.name}" @click=${() => this.set({ editing: m.id, draft: m.name, confirmDelete: null })}>${PENCIL_ICON}</button>
      <button class="delete icon" aria-label="Delete ${m.name}" @click=${() => this.set({ confirmDelete: m.id, editing: null })}>${TRASH_ICON}</button>`;
  }

  renderAdd() {
    const d = this.d;
    const busy = d.addState !== 'idle';
    if (!this.adding) {
      return html`<div class="add"><button class="add-open" ?disabled=${busy} @click=${() => this.set({ adding: true })}>Add</button>
        ${d.superAdmin ? this.renderAI() : nothing}</div>`;
    }
    return html`<div class="add" role="dialog" aria-label="Add Marker">
      <button class="toggle-custom" ?disabled=${busy} @click=${() => this.set({ custom: !this.custom })}>${this.custom ? 'Cancel' : 'New'}</button>
      ${
        this.custom
          ? html`<div style="display:flex;gap:4px">
            <input placeholder="Enter new marker name" aria-label="Marker name" .value=${this.customName} ?disabled=${busy}
              @input=${(e: Event) => this.set({ customName: (e.target as HTMLInputElement).value })}
              @keydown=${(e: KeyboardEvent) => e.key === 'Enter' && this.addCustom()} />
            <button class="add-custom" ?disabled=${busy} @click=${() => this.addCustom()}>${d.addState === 'addingCustom' ? 'Adding…' : 'Add'}</button>
          </div>`
          : nothing
      }
      <div class="names" role="list">
        ${PREDEFINED_MARKER_NAMES.map(
          (n) =>
            html`<button role="listitem" class="predefined" ?disabled=${busy} @click=${() => emit(d, 'tour-marker-add-request', { name: n, custom: false })}>${n}</button>`,
        )}
      </div>
      <button class="add-close" ?disabled=${busy} @click=${() => this.set({ adding: false })}>Close</button>
    </div>`;
  }

  private renderAI() {
    const ai = this.d.ai;
    if (ai.active) {
      const determinate = ai.progress > 0;
      return html`<div class="ai" role="status">Generating with AI ${determinate ? html`${Math.round(ai.progress)}%` : nothing}
        <div class="progress ${determinate ? '' : 'indeterminate'}" role="progressbar" aria-label="Generating with AI"
          aria-valuemin="0" aria-valuemax="100" aria-valuenow=${determinate ? Math.round(ai.progress) : nothing}>
          <div style=${determinate ? `width:${ai.progress}%` : ''}></div></div></div>`;
    }
    return html`<button class="ai-generate" @click=${() => emit(this.d, 'tour-ai-markers-request', {})}>Auto generate with AI (beta)</button>`;
  }
}
