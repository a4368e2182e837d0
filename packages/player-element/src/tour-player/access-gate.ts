/**
 * The password screen and the members-only screen of a protected tour: in the company's branding (logo,
 * name, accent colour), naming nothing of the tour (no title, poster or room) before the password. The player shows
 * it in every embed way (script tag, iframe, React, share page) since it is part of the element. Loaded only for a
 * protected tour (load-access-gate.ts), with its styles in its own template.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { PLAYER_GATE_TEXTS as TEXTS } from '@roomwalk/shared/player-texts';
import { TOUR_UNLOCK_MUTATION } from '@roomwalk/shared/player-documents';
import { VALIDATION } from '@roomwalk/shared/messages';
import { keepGrant } from '../api/access-grant.js';
import { graphqlRequest, GraphQLRequestError } from '../api/graphql.js';
import type { GateState } from '../api/tour-access.js';
import { humanCheck } from '../live-panel/turnstile.js';

export interface GateHandlers {
  /** Where "Sign in" leads (members-only), '' for no link. */
  signInUrl: string;
  unbranded: boolean;
  /** `form`: the screen's form (the human check is shown in it when the tour asks for one). */
  onSubmit(password: string, form: HTMLFormElement): void;
}

const GATE_CSS = `
  .gate { background: var(--rw-gate-backdrop, #1d232b); }
  .gate-card { display: grid; gap: 10px; width: min(340px, calc(100% - 32px)); box-sizing: border-box; text-align: left; }
  .gate-card h2 { margin: 0; }
  .gate-card p { margin: 0; }
  .gate-logo { max-height: 48px; max-width: 180px; object-fit: contain; justify-self: start; }
  .gate-company { font-weight: 600; color: #444; }
  .gate-card label { display: grid; gap: 4px; font-size: 14px; }
  .gate-card input { font: inherit; font-size: 16px; padding: 10px; border: 1px solid #aaa; border-radius: 6px; min-height: 44px; box-sizing: border-box; }
  .gate-card input:focus-visible { outline: 3px solid var(--tour-player-accent); outline-offset: 1px; }
  .gate-card button[type='submit'], .gate-card a.button { min-height: 44px; width: 100%; justify-content: center; display: inline-flex; align-items: center; }
  .gate-error { color: #b00020; font-size: 14px; }
`;

function submit(e: SubmitEvent, h: GateHandlers): void {
  e.preventDefault();
  const form = e.currentTarget as HTMLFormElement;
  const input = form.elements.namedItem('password') as HTMLInputElement | null;
  if (input?.value) h.onSubmit(input.value, form);
}

/** Adds the gate's styles to the player's shadow root, once (beside the element's own). */
export function adoptGateStyles(root: ShadowRoot): void {
  if (
    root.querySelector('style[data-gate]') ||
    root.adoptedStyleSheets?.some((x) => (x as CSSStyleSheet & { gate?: boolean }).gate)
  )
    return;
  try {
    const sheet = new CSSStyleSheet() as CSSStyleSheet & { gate?: boolean };
    sheet.replaceSync(GATE_CSS);
    sheet.gate = true;
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } catch {
    const style = document.createElement('style');
    style.dataset.gate = '';
    style.textContent = GATE_CSS;
    root.append(style);
  }
}

/** Renders the gate over the player (an empty stage behind it: nothing of the tour is loaded). */
export function renderAccessGate(g: GateState, h: GateHandlers): TemplateResult {
  const accent =
    !h.unbranded && g.accentColor && /^#[0-9a-f]{6}$/i.test(g.accentColor)
      ? `--tour-player-accent:${g.accentColor}`
      : '';
  const brand = h.unbranded
    ? nothing
    : g.logoURL
      ? html`<img class="gate-logo" part="gate-logo" src=${g.logoURL} alt=${g.companyName ?? ''} />`
      : g.companyName
        ? html`<p class="gate-company" part="gate-company">${g.companyName}</p>`
        : nothing;
  if (g.kind === 'unavailable') {
    // An audience link that expired or was revoked: the company's message, not an error.
    const c = g.contact;
    const who = c ? [c.name, g.companyName ? `(${g.companyName})` : null].filter(Boolean).join(' ') : '';
    return html`<div class="overlay gate" part="gate" style=${accent}>
      <div class="dialog gate-card" part="gate-card" role="dialog" aria-modal="true" aria-labelledby="gate-title" data-kind="unavailable">
        ${brand}
        <h2 id="gate-title">${TEXTS.linkUnavailableTitle}</h2>
        <p>${TEXTS.linkUnavailable}${who ? ` ${TEXTS.linkUnavailableContact} ${who}` : ''}${c?.email || c?.phone ? ':' : ''}</p>
        ${c?.email ? html`<a class="button" part="gate-contact" href="mailto:${c.email}">${c.email}</a>` : nothing}
        ${c?.phone ? html`<a class="button" part="gate-contact" href="tel:${c.phone.replace(/[^\d+]/g, '')}">${c.phone}</a>` : nothing}
      </div>
    </div>`;
  }
  if (g.kind === 'members') {
    return html`<div class="overlay gate" part="gate" style=${accent}>
      <div class="dialog gate-card" part="gate-card" role="dialog" aria-modal="true" aria-labelledby="gate-title" data-kind="members">
        ${brand}
        <h2 id="gate-title">${TEXTS.tourMembersOnlyTitle}</h2>
        <p>${TEXTS.tourMembersOnly}</p>
        ${h.signInUrl ? html`<a class="button" href=${h.signInUrl} target="_top">${TEXTS.tourMembersOnlySignIn}</a>` : nothing}
      </div>
    </div>`;
  }
  return html`<div class="overlay gate" part="gate" style=${accent}>
    <form class="dialog gate-card" part="gate-card" role="dialog" aria-modal="true" aria-labelledby="gate-title" data-kind="password"
      @submit=${(e: SubmitEvent) => submit(e, h)}>
      ${brand}
      <h2 id="gate-title">${TEXTS.tourPasswordTitle}</h2>
      <p>${TEXTS.tourPasswordText}</p>
      <label>${TEXTS.tourPasswordLabel}
        <input name="password" type="password" autocomplete="current-password" required aria-invalid=${g.error ? 'true' : 'false'}
          aria-describedby=${g.error ? 'gate-error' : nothing} ?disabled=${g.busy} /></label>
      <div class="turnstile"></div>
      ${g.error ? html`<p id="gate-error" class="gate-error" role="alert">${g.error}</p>` : nothing}
      <button type="submit" ?disabled=${g.busy}>${TEXTS.tourPasswordSubmit}</button>
    </form>
  </div>`;
}

/** The human check's token, once the tour asked for one (after many wrong guesses at it from anywhere). */
let humanToken: (() => string) | null = null;

/**
 * The password or why it was refused, in the visitor's words (null: let in, this session's grant is kept). When the
 * tour asks for a human check (HUMAN_CHECK_FAILED with `humanCheck`), the check is shown in `form` and the guess is
 * sent again with its token as soon as there is one (at once in development).
 */
export async function unlock(
  api: string,
  tourId: string,
  password: string,
  form?: HTMLFormElement,
): Promise<string | null> {
  const send = () =>
    graphqlRequest<{ tourUnlock: { access: string } }>(api, TOUR_UNLOCK_MUTATION, {
      tourID: tourId,
      password,
      ...(humanToken?.() ? { turnstileToken: humanToken() } : {}),
    });
  try {
    let data: { tourUnlock: { access: string } };
    try {
      data = await send();
    } catch (e) {
      if (!(e instanceof GraphQLRequestError && e.extensions?.humanCheck === true) || humanToken || !form) throw e;
      humanToken = await humanCheck(form);
      if (!humanToken()) return VALIDATION.humanCheckRequired;
      data = await send();
    }
    keepGrant(tourId, data.tourUnlock.access);
    return null;
  } catch (e) {
    if (e instanceof GraphQLRequestError && e.code === 'TOUR_PASSWORD_WRONG') return TEXTS.tourPasswordWrong;
    return e instanceof Error && e.message ? e.message : TEXTS.tourPasswordWrong;
  }
}
