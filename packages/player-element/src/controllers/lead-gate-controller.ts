import type { ReactiveController } from 'lit';
import { nothing } from 'lit';
import { effect } from '@preact/signals-core';
import { STATUSES } from '../constants.js';
import { waitingLead } from '../api/access-grant.js';
import { loadLeadGate } from '../lead-gate/load.js';
import type { PlayerContext } from '../store/player-context.js';

type Session = InstanceType<Awaited<ReturnType<typeof loadLeadGate>>['LeadGateSession']>;

/**
 * When a tour's lead gate asks (Tour.leadGate, docs/access-and-privacy.md): before the chosen room — the server gives
 * a visitor the clips up to it only, so the playhead reaching their end (by scrolling, or a fast travel to a room past
 * it) is the gate — or after the chosen seconds of watching; at once when this session's visitor already waits for
 * the agent. The form, the wait and the continuation are the chunk's (lead-gate/lead-gate-session.ts).
 */
export class LeadGateController implements ReactiveController {
  private session: Session | undefined;
  private asked = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private dispose: (() => void) | undefined;

  constructor(
    private readonly ctx: PlayerContext,
    private readonly reload: () => Promise<void>,
    private readonly jump: (frame: number) => Promise<void>,
  ) {
    ctx.host.addController(this);
  }

  hostConnected(): void {
    const s = this.ctx.store;
    this.dispose = effect(() => {
      const gate = s.tour.value?.leadGate;
      if (!gate || gate.open || this.asked || s.status.value !== STATUSES.ready) return;
      if (waitingLead(this.ctx.config.tourId.trim())) this.ask();
      else if (gate.roomName !== null) {
        if (s.frame.value >= s.totalFrames.value) this.ask();
      } else if (gate.seconds) this.timer ??= setTimeout(() => this.ask(), gate.seconds * 1000);
    });
  }

  hostDisconnected(): void {
    this.dispose?.();
    clearTimeout(this.timer);
    this.session?.stop();
  }

  /** The form or the waiting screen over the player; nothing while no gate asks. */
  render(unbranded: boolean) {
    return this.session?.render(unbranded) ?? nothing;
  }

  private ask(): void {
    this.asked = true;
    void loadLeadGate().then((m) => {
      this.session = new m.LeadGateSession(this.ctx, this.reload, this.jump);
    });
  }
}
