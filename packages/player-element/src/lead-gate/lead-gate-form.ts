/**
 * The lead gate's form and waiting screen, over the player (controllers/lead-gate-controller.ts decides when): in the
 * company's branding (its intro logo and accent colour), labelled fields, 44 px touch targets, 16 px text (no zoom on
 * phones). Sends the lead with the frame the visitor stopped at and, when the agent approves, waits on the live socket
 * (/ws/tour-viewer-events?lead=) for the pass. Loaded only for a tour with a gate (load.ts).
 */
import { html, nothing, type TemplateResult } from 'lit';
import { LEAD_GATE_TEXTS as TEXTS } from '@roomwalk/shared/lead-gate-texts';
import { VALIDATION } from '@roomwalk/shared/messages';
import {
  GATE_SOCKET_MESSAGES,
  gateServerMessageSchema,
  parseSocketMessage,
} from '@roomwalk/shared/schemas/socket-messages';
import { GraphQLRequestError } from '../api/graphql.js';
import { createTourLead } from '../api/tour-lead.js';

export type LeadGateView =
  | { phase: 'form' | 'sending'; error: string; fields: Record<string, string> }
  | { phase: 'waiting'; reconnecting: boolean }
  | { phase: 'approved' };

export interface LeadGateRenderOptions {
  roomName: string | null;
  logoURL: string | null;
  accentColor: string | null;
  unbranded: boolean;
  onSubmit(form: HTMLFormElement): void;
}

const CSS = `
  .lead-gate { background: rgba(0, 0, 0, 0.55); z-index: 6; }
  .lead-gate-card { display: grid; gap: 10px; width: min(380px, calc(100% - 24px)); max-height: calc(100% - 24px); overflow: auto; box-sizing: border-box; text-align: left; }
  .lead-gate-card h2 { margin: 0; font-size: 20px; }
  .lead-gate-card p { margin: 0; }
  .lead-gate-logo { max-height: 44px; max-width: 180px; object-fit: contain; justify-self: start; }
  .lead-gate-card label { display: grid; gap: 4px; font-size: 14px; font-weight: 600; }
  .lead-gate-card input { font: inherit; font-size: 16px; font-weight: 400; padding: 10px; border: 1px solid #767676; border-radius: 6px; min-height: 44px; box-sizing: border-box; width: 100%; }
  .lead-gate-card input[aria-invalid='true'] { border: 2px solid #b00020; }
  .lead-gate-card input:focus-visible { outline: 3px solid var(--tour-player-accent); outline-offset: 1px; }
  .lead-gate-card button[type='submit'] { min-height: 44px; width: 100%; justify-content: center; display: inline-flex; align-items: center; }
  .lead-gate-error { color: #b00020; font-size: 14px; font-weight: 400; margin: 0; }
  .lead-gate-status { font-size: 16px; line-height: 1.5; }
  .lead-gate-spinner { width: 28px; height: 28px; border: 3px solid #ccc; border-top-color: var(--tour-player-accent); border-radius: 50%; animation: lead-gate-spin 1s linear infinite; }
  @keyframes lead-gate-spin { to { transform: rotate(360deg); } }
  @media (prefers-reduced-motion: reduce) { .lead-gate-spinner { animation: none; } }
`;

/** Adds the form's styles to the player's shadow root, once. */
export function adoptLeadGateStyles(root: ShadowRoot): void {
  if (root.querySelector('style[data-lead-gate]')) return;
  const style = document.createElement('style');
  style.dataset.leadGate = '';
  style.textContent = CSS;
  root.append(style);
}

function field(
  name: string,
  label: string,
  type: string,
  autocomplete: string,
  v: { fields: Record<string, string> },
  busy: boolean,
  required: boolean,
) {
  const err = v.fields[name];
  return html`<label>${label}${required ? nothing : ' (optional)'}
    <input name=${name} type=${type} autocomplete=${autocomplete} ?required=${required} ?disabled=${busy}
      aria-invalid=${err ? 'true' : 'false'} aria-describedby=${err ? `lead-gate-${name}-error` : nothing} />
    ${err ? html`<span id="lead-gate-${name}-error" class="lead-gate-error">${err}</span>` : nothing}</label>`;
}

/** The form, the waiting screen, or the moment of approval. */
export function renderLeadGate(v: LeadGateView, o: LeadGateRenderOptions): TemplateResult {
  const accent =
    !o.unbranded && o.accentColor && /^#[0-9a-f]{6}$/i.test(o.accentColor)
      ? `--tour-player-accent:${o.accentColor}`
      : '';
  const brand =
    !o.unbranded && o.logoURL
      ? html`<img class="lead-gate-logo" part="lead-gate-logo" src=${o.logoURL} alt="" />`
      : nothing;
  if (v.phase === 'waiting' || v.phase === 'approved') {
    const approved = v.phase === 'approved';
    return html`<div class="overlay lead-gate" part="lead-gate" style=${accent}>
      <div class="dialog lead-gate-card" part="lead-gate-card" role="dialog" aria-modal="true" aria-labelledby="lead-gate-title" data-phase=${v.phase}>
        ${brand}
        <h2 id="lead-gate-title" tabindex="-1">${approved ? TEXTS.approved : TEXTS.waitingTitle}</h2>
        ${approved ? nothing : html`<div class="lead-gate-spinner" aria-hidden="true"></div>`}
        <p class="lead-gate-status" role="status" aria-live="polite">${approved ? '' : v.reconnecting ? TEXTS.connectionLost : TEXTS.waiting}</p>
      </div>
    </div>`;
  }
  const busy = v.phase === 'sending';
  return html`<div class="overlay lead-gate" part="lead-gate" style=${accent}>
    <form class="dialog lead-gate-card" part="lead-gate-card" role="dialog" aria-modal="true" aria-labelledby="lead-gate-title" data-phase=${v.phase} novalidate
      @submit=${(e: SubmitEvent) => {
        e.preventDefault();
        o.onSubmit(e.currentTarget as HTMLFormElement);
      }}>
      ${brand}
      <h2 id="lead-gate-title">${o.roomName ? TEXTS.formTitleRoom(o.roomName) : TEXTS.formTitle}</h2>
      <p>${TEXTS.formIntro}</p>
      ${field('name', 'First name', 'text', 'given-name', v, busy, true)}
      ${field('surname', 'Last name', 'text', 'family-name', v, busy, false)}
      ${field('email', 'Email', 'email', 'email', v, busy, true)}
      ${field('contactNumber', 'Phone', 'tel', 'tel', v, busy, false)}
      <div class="turnstile"></div>
      ${v.error ? html`<p class="lead-gate-error" role="alert">${v.error}</p>` : nothing}
      <button type="submit" ?disabled=${busy}>${busy ? TEXTS.sending : TEXTS.submit}</button>
    </form>
  </div>`;
}

export type GateResult =
  | { ok: true; leadId: string /** OPEN or WAITING. */; state: string; access: string | null; waitToken: string | null }
  | { ok: false; error: string; fields: Record<string, string> };

/** Sends the form as a lead left at the gate; the fields' problems in the visitor's words. */
export async function sendLead(
  host: HTMLElement,
  api: string,
  tourId: string,
  form: HTMLFormElement,
  turnstileToken: string,
  gateFrame: number,
  /** The audience link watched through ('' for none): its own gate applies, and gateFrame counts its frames. */
  link = '',
): Promise<GateResult> {
  const value = (k: string) => ((form.elements.namedItem(k) as HTMLInputElement | null)?.value ?? '').trim();
  // The plain checks here; the server checks everything (the phone number's shape too) and answers per field.
  const fields: Record<string, string> = {};
  if (!value('name')) fields.name = VALIDATION.nameRequired;
  if (!value('email')) fields.email = VALIDATION.emailRequired;
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value('email'))) fields.email = VALIDATION.emailInvalid;
  if (!turnstileToken) return { ok: false, error: VALIDATION.humanCheckRequired, fields };
  if (Object.keys(fields).length) return { ok: false, error: '', fields };
  try {
    const created = await createTourLead(
      host,
      api,
      tourId,
      {
        name: value('name'),
        surname: value('surname'),
        email: value('email'),
        contactNumber: value('contactNumber'),
        turnstileToken,
      },
      { leadType: 'CONTACT', gateFrame, link },
    );
    const g = created.gate;
    if (!g) return { ok: false, error: TEXTS.noGate, fields: {} };
    return { ok: true, leadId: created.tourLead.id, ...g };
  } catch (e) {
    const fields =
      e instanceof GraphQLRequestError ? ((e.extensions?.fields as Record<string, string> | undefined) ?? {}) : {};
    return {
      ok: false,
      error: e instanceof Error && e.message ? e.message : 'Something went wrong. Please try again.',
      fields,
    };
  }
}

/**
 * Waits on the live socket for the agent's approval; `onOpen` gets the pass, `onEnded` is told when the lead's pass
 * has ended (the agent took it back, or the tour's access or gate changed: the form asks again). The wait credential
 * is the socket's first message (never its URL, which access logs keep). Reconnects after a lost connection (1, 2, 4 …
 * up to 30 s apart), telling `onState`. Answers the function that stops waiting.
 */
export function waitForApproval(
  api: string,
  tourId: string,
  leadId: string,
  token: string,
  onOpen: (pass: string) => void,
  onState: (reconnecting: boolean) => void,
  onEnded: () => void = () => undefined,
): () => void {
  let ws: WebSocket | null = null;
  let stopped = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const url = new URL('/ws/tour-viewer-events', api.replace(/^http/, 'ws'));
  url.search = new URLSearchParams({ tourId, lead: leadId }).toString();
  const connect = () => {
    const socket = new WebSocket(url.toString());
    ws = socket;
    socket.onopen = () => socket.send(JSON.stringify({ type: GATE_SOCKET_MESSAGES.wait, token }));
    socket.onmessage = (ev: MessageEvent) => {
      const m = parseSocketMessage(gateServerMessageSchema, String(ev.data));
      if (!m) return;
      if (m.type === GATE_SOCKET_MESSAGES.waiting) {
        attempt = 0;
        onState(false);
      }
      if (m.type === GATE_SOCKET_MESSAGES.open) {
        stopped = true;
        ws?.close();
        onOpen(m.access);
      }
      if (m.type === GATE_SOCKET_MESSAGES.ended) {
        stopped = true;
        ws?.close();
        onEnded();
      }
    };
    socket.onclose = () => {
      if (stopped) return;
      onState(true);
      timer = setTimeout(connect, Math.min(30_000, 1000 * 2 ** attempt++));
    };
  };
  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    ws?.close();
  };
}
