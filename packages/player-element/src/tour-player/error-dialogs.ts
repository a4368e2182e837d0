import { html, nothing, type TemplateResult } from 'lit';
import { PLAYER_ERROR_TEXTS as ERROR_TEXTS } from '@roomwalk/shared/player-texts';
import { SUPPORT_EMAIL } from '@roomwalk/shared/constants';
import type { TourPlayerErrorCode } from '../errors.js';

/** What a dialog's button does: load again, leave for the home page, or retry (with Close where dismissable). */
type DialogAction = 'refresh' | 'go-home' | 'close-home' | 'retry';

/** What the user sees for an error code: the dialog's title, text, action and the code's page in docs/errors/. */
interface ErrorDialog {
  /** `data-kind` of the dialog (styles and tests). */
  kind: string;
  title: string;
  text: string;
  action: DialogAction;
  doc: string;
  /** "For more information contact support@…" (hidden with `unbranded`). */
  support?: boolean;
  /** "Show More Information" with the error's message. */
  details?: boolean;
}

const generic = (doc: string): ErrorDialog => ({
  kind: 'query-error',
  title: ERROR_TEXTS.dataLoadError,
  text: '',
  action: 'retry',
  doc,
  details: true,
});

/** Error code → dialog: the error catalogue's titles and texts, each with its action and doc page. */
const ERROR_DIALOGS: Record<TourPlayerErrorCode, ErrorDialog> = {
  LOAD_TIMEOUT: {
    kind: 'timeout',
    title: ERROR_TEXTS.takingAWhileTitle,
    text: ERROR_TEXTS.takingAWhile,
    action: 'refresh',
    doc: 'docs/errors/LOAD_TIMEOUT.md',
  },
  DECODE_FAILED: {
    kind: 'failed',
    title: ERROR_TEXTS.failedToLoadTitle,
    text: ERROR_TEXTS.failedToLoad,
    action: 'refresh',
    doc: 'docs/errors/DECODE_FAILED.md',
  },
  TOUR_REMOVED: {
    kind: 'removed',
    title: ERROR_TEXTS.tourRemovedTitle,
    text: ERROR_TEXTS.tourRemoved,
    action: 'close-home',
    doc: 'docs/errors/TOUR_REMOVED.md',
    support: true,
  },
  INVALID_LINK: {
    kind: 'invalid',
    title: ERROR_TEXTS.invalidLinkTitle,
    text: ERROR_TEXTS.invalidLink,
    action: 'go-home',
    doc: 'docs/errors/INVALID_LINK.md',
  },
  QUERY_FAILED: generic('docs/errors/QUERY_FAILED.md'),
  MARKER_FAILED: generic('docs/errors/MARKER_FAILED.md'),
  AI_MARKERS_FAILED: generic('docs/errors/AI_MARKERS_FAILED.md'),
};

export interface DialogOptions {
  unbranded: boolean;
  homeUrl: string;
  /** The generic dialog can be closed (not in agent mode). */
  dismissable: boolean;
  showMore: boolean;
  detail: string;
  onRefresh(): void;
  onClose(): void;
  onToggleMore(): void;
}

/** The dialog frame every player dialog shares (an `alertdialog` labelled by its title). */
export function renderDialog(
  title: string,
  body: string,
  actions: unknown,
  kind: string,
  extra: unknown = nothing,
  doc?: string,
): TemplateResult {
  return html`<div class="overlay" part="dialog-overlay">
    <div class="dialog" part="dialog" role="alertdialog" aria-modal="true" aria-labelledby="dlg-title" data-kind=${kind} data-doc=${doc ?? nothing}>
      <h2 id="dlg-title">${title}</h2>
      ${body ? html`<p>${body}</p>` : nothing}
      ${extra}
      <div class="actions">${actions}</div>
    </div>
  </div>`;
}

/** Renders an error code's dialog from the table. */
export function renderErrorDialog(code: TourPlayerErrorCode, o: DialogOptions): TemplateResult {
  const d = ERROR_DIALOGS[code];
  const home = (label: string) =>
    o.unbranded ? nothing : html`<a class="button" href=${o.homeUrl} target="_blank" rel="noopener">${label}</a>`;
  const actions = {
    refresh: () => html`<button class="refresh" @click=${o.onRefresh}>Refresh</button>`,
    'go-home': () => home('Go Home'),
    'close-home': () => home('Close'),
    retry:
      () => html`${o.dismissable ? html`<button class="secondary close" @click=${o.onClose}>Close</button>` : nothing}
      <button class="retry" @click=${o.onRefresh}>Retry</button>`,
  }[d.action]();
  const extra = html`${d.support && !o.unbranded ? html`<p>${ERROR_TEXTS.contactForMore} <a href="mailto:${SUPPORT_EMAIL}">${SUPPORT_EMAIL}</a></p>` : nothing}
    ${
      d.details
        ? html`<button class="secondary more" @click=${o.onToggleMore}>${o.showMore ? 'Show Less Information' : 'Show More Information'}</button>
          ${o.showMore ? html`<pre>${o.detail}</pre>` : nothing}`
        : nothing
    }`;
  return renderDialog(d.title, d.text, actions, d.kind, extra, d.doc);
}
