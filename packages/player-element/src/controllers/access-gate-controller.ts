import type { ReactiveController } from 'lit';
import { nothing } from 'lit';
import { loadAccessGate } from '../tour-player/load-access-gate.js';
import type { PlayerContext } from '../store/player-context.js';

type GateModule = Awaited<ReturnType<typeof loadAccessGate>>;

/**
 * A protected tour's gate: the loader sets it (store.gate) when the tour query is refused for access; this
 * loads the screen's chunk then (public tours never do), renders it, and on a right password, whose grant the chunk
 * keeps for this session, loads the tour again. A wrong one is said on the screen.
 */
export class AccessGateController implements ReactiveController {
  private module: GateModule | undefined;
  private loading = false;

  constructor(
    private readonly ctx: PlayerContext,
    private readonly reload: () => Promise<void>,
  ) {
    ctx.host.addController(this);
  }

  hostConnected(): void {}

  hostUpdate(): void {
    if (this.module || this.loading || !this.ctx.store.gate.peek()) return;
    this.loading = true;
    loadAccessGate().then(
      (m) => {
        this.module = m;
        if (this.ctx.host.renderRoot instanceof ShadowRoot) m.adoptGateStyles(this.ctx.host.renderRoot);
        this.ctx.host.requestUpdate();
      },
      () => (this.loading = false),
    );
  }

  /** The screen, once its chunk is here (`signInUrl`: where members sign in, '' for none). */
  render(signInUrl: string, unbranded: boolean) {
    const gate = this.ctx.store.gate.value;
    if (!gate || !this.module) return nothing;
    return this.module.renderAccessGate(gate, {
      signInUrl,
      unbranded,
      onSubmit: (pw, form) => void this.unlock(pw, form),
    });
  }

  private async unlock(password: string, form: HTMLFormElement): Promise<void> {
    const { store, config } = this.ctx;
    const gate = store.gate.peek();
    if (!gate || gate.busy || !this.module) return;
    store.gate.value = { ...gate, busy: true, error: '' };
    const error = await this.module.unlock(config.apiBase, config.tourId.trim(), password, form);
    if (error === null) {
      store.gate.value = null;
      await this.reload();
      return;
    }
    store.gate.value = { ...gate, busy: false, error };
  }
}
