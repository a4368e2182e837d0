/**
 * One visitor at a tour's lead gate (the chunk controllers/lead-gate-controller.ts loads when the gate asks): the form
 * where the visitor stopped; after it, the pass the server answers at once, or the wait on the live socket until the
 * agent approves (a reload of the page waits again: the lead is kept for the browser session). The pass becomes this
 * session's grant and the tour is loaded again with it, the playhead where the visitor stopped: no page reload.
 * Plain state and requestUpdate, not signals: this chunk has its own copy of the libraries.
 */
import { nothing } from 'lit';
import { LEAD_GATE_TEXTS } from '@roomwalk/shared/lead-gate-texts';
import { keepPass, keepWaitingLead, waitingLead } from '../api/access-grant.js';
import { humanCheck } from '../live-panel/turnstile.js';
import type { PlayerContext } from '../store/player-context.js';
import { adoptLeadGateStyles, renderLeadGate, sendLead, waitForApproval, type LeadGateView } from './lead-gate-form.js';

export class LeadGateSession {
  private view: LeadGateView | null = null;
  private humanToken: (() => string) | undefined;
  private stopWaiting: (() => void) | undefined;
  private readonly tourId: string;
  /** The frame where the gate stopped the visitor. */
  private readonly stoppedAt: number;

  constructor(
    private readonly ctx: PlayerContext,
    private readonly reload: () => Promise<void>,
    private readonly jump: (frame: number) => Promise<void>,
  ) {
    this.tourId = ctx.config.tourId.trim();
    this.stoppedAt = ctx.store.frame.peek();
    const root = ctx.host.renderRoot;
    if (root instanceof ShadowRoot) adoptLeadGateStyles(root);
    const [leadId, token] = (waitingLead(this.tourId) ?? '').split(' ');
    if (leadId && token) this.wait(leadId, token);
    else void this.openForm();
  }

  stop(): void {
    this.stopWaiting?.();
  }

  render(unbranded: boolean) {
    const t = this.ctx.store.tour.peek();
    if (!this.view || !t) return nothing;
    return renderLeadGate(this.view, {
      roomName: t.leadGate?.roomName ?? null,
      logoURL: t.tourIntroLogoURL ?? null,
      accentColor: t.tourAccentColor ?? null,
      unbranded,
      onSubmit: (form) => void this.submit(form),
    });
  }

  private set(view: LeadGateView | null): void {
    this.view = view;
    this.ctx.host.requestUpdate();
  }

  private find<T extends Element>(selector: string): T | null {
    return this.ctx.host.renderRoot.querySelector<T>(selector);
  }

  private async openForm(): Promise<void> {
    this.set({ phase: 'form', error: '', fields: {} });
    await this.ctx.host.updateComplete;
    const form = this.find<HTMLFormElement>('[part="lead-gate-card"]');
    form?.querySelector<HTMLInputElement>('input[name="name"]')?.focus();
    if (form) this.humanToken = await humanCheck(form);
  }

  private async submit(form: HTMLFormElement): Promise<void> {
    const v = this.view;
    if (!v || v.phase !== 'form') return;
    this.set({ ...v, phase: 'sending', error: '' });
    const r = await sendLead(
      this.ctx.host,
      this.ctx.config.apiBase,
      this.tourId,
      form,
      this.humanToken?.() ?? '',
      this.stoppedAt,
      this.ctx.config.audienceLink.trim(),
    );
    if (!r.ok) {
      this.set({ phase: 'form', error: r.error, fields: r.fields });
      await this.ctx.host.updateComplete;
      (
        form.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form.querySelector<HTMLElement>('[role="alert"]')
      )?.focus();
      return;
    }
    if (r.state === 'OPEN' && r.access) return this.continueWith(r.access);
    if (r.waitToken) {
      keepWaitingLead(this.tourId, `${r.leadId} ${r.waitToken}`);
      this.wait(r.leadId, r.waitToken);
    }
  }

  private wait(leadId: string, token: string): void {
    this.set({ phase: 'waiting', reconnecting: false });
    void this.ctx.host.updateComplete.then(() => this.find<HTMLElement>('#lead-gate-title')?.focus());
    this.stopWaiting = waitForApproval(
      this.ctx.config.apiBase,
      this.tourId,
      leadId,
      token,
      (pass) => void this.continueWith(pass),
      (reconnecting) => {
        if (this.view?.phase === 'waiting') this.set({ phase: 'waiting', reconnecting });
      },
      () => {
        // The lead's pass has ended (taken back, or the tour changed): the form asks again.
        keepWaitingLead(this.tourId, null);
        void this.openForm();
      },
    );
  }

  private async continueWith(pass: string): Promise<void> {
    keepPass(this.tourId, pass);
    keepWaitingLead(this.tourId, null);
    this.set({ phase: 'approved' });
    await this.reload();
    this.set(null);
    await this.jump(this.stoppedAt).catch(() => undefined);
    this.ctx.showNotice(LEAD_GATE_TEXTS.approved, 'success');
    this.find<HTMLElement>('canvas')?.focus();
  }
}
