import { css, html, nothing, type ReactiveController } from 'lit';
import { MODES } from '../constants.js';
import { loadLivePanel } from '../live-panel/load.js';
import type { PlayerContext } from '../store/player-context.js';

/** Start button labels; the live-call module's texts live in the lazily loaded chunk. */
const LIVE_BUTTON_TEXTS = { host: 'Go Live', viewer: 'Talk to Agent' } as const;

/** What the player needs of the panel element (defined in the lazy chunk). */
interface LivePanelElement extends HTMLElement {
  role: 'host' | 'viewer';
  api: string;
  tourId: string;
  /** The audience link the visitor watches through: the server moves the agent's frames into the link's. */
  audienceLink: string;
  session: string;
  authToken: string | undefined;
  onRemoteFrame: ((frame: number) => void) | null;
  begin(): Promise<void>;
  sendFrame(frame: number): void;
  hangUp(): Promise<void>;
  readonly isSyncActive: boolean;
}

export const liveStyles = css`
  .live-start { position: absolute; left: 8px; top: 56px; z-index: 5; font: 600 14px system-ui, sans-serif; padding: 8px 14px;
    border: 0; border-radius: 999px; background: #c62828; color: #fff; cursor: pointer; box-shadow: 0 2px 8px rgba(0,0,0,.35); }
  .live-start:focus-visible { outline: 2px solid #fff; outline-offset: 2px; }
  .live-start[disabled] { opacity: 0.7; cursor: progress; }
  .top-bar .live-start { position: static; flex: none; box-shadow: none; padding: 6px 12px; min-height: 32px; }
`;

/**
 * Live viewing in the player: the start button ('Go Live' for a host in preview/edit/agent mode with a
 * session token, 'Talk to Agent' for a viewer in external mode), and on press the lazily loaded `<tour-live-panel>`
 * (lead form, video panels, the `../live-call/` module). A host opened with a `live-session` (the agent's Join) starts
 * at once, without the press. Remote frames move the player; our own user input is sent.
 */
export class LiveViewingController implements ReactiveController {
  open = false;
  loading = false;
  private autoStarted = false;
  private panel: LivePanelElement | null = null;
  private readonly host: PlayerContext['host'];

  /** `onRemoteFrame` moves the player to a frame the others in the room are at. */
  constructor(
    private readonly ctx: PlayerContext,
    private readonly onRemoteFrame: (frameIndex: number) => void,
  ) {
    this.host = ctx.host;
    ctx.host.addController(this);
  }

  /** 'host' or 'viewer' for this mode, or null when live viewing cannot start here. */
  get role(): 'host' | 'viewer' | null {
    const c = this.ctx.config;
    if (!c.liveViewing) return null;
    if (c.mode === MODES.external) return 'viewer';
    return c.authToken ? 'host' : null;
  }

  /** The panel element while open (tests and pages read its state). */
  get livePanel(): LivePanelElement | null {
    return this.panel;
  }

  hostConnected(): void {
    this.host.addEventListener('tour-frame-change', this.onFrame);
    this.host.addEventListener('tour-live-close', this.onClose);
  }

  hostDisconnected(): void {
    this.host.removeEventListener('tour-frame-change', this.onFrame);
    this.host.removeEventListener('tour-live-close', this.onClose);
    this.panel = null;
    this.open = false;
  }

  hostUpdated(): void {
    if (this.open && !this.role) void this.panel?.hangUp();
    // Opened from the agent's Join (the console's notice or the lead mail names the visitor's session): the agent
    // pressed Join to be in the call, so the call starts at once, once; Go Live stays for a later call.
    if (!this.autoStarted && this.role === 'host' && this.ctx.config.liveSession) {
      this.autoStarted = true;
      queueMicrotask(() => void this.start());
    }
  }

  /** Presses the start button: loads the panel chunk, then the form or the call. */
  async start(): Promise<void> {
    const role = this.role;
    if (!role || this.open || this.loading) return;
    this.loading = true;
    this.host.requestUpdate();
    try {
      await loadLivePanel();
    } catch {
      this.loading = false;
      this.ctx.showNotice('Live viewing could not be loaded.', 'error');
      this.host.requestUpdate();
      return;
    }
    const panel = document.createElement('tour-live-panel') as LivePanelElement;
    panel.role = role;
    const c = this.ctx.config;
    panel.api = c.apiBase;
    panel.tourId = c.tourId;
    panel.audienceLink = c.audienceLink.trim();
    panel.session = c.liveSession;
    panel.authToken = c.authToken;
    panel.onRemoteFrame = (f) => this.onRemoteFrame(f);
    this.panel = panel;
    this.loading = false;
    this.open = true;
    // The call panel takes the room beside the picture: the Fast Travel drawer closes (the visitor may open it again),
    // so the picture keeps its size during the call.
    this.ctx.store.drawerOpen.value = false;
    this.host.requestUpdate();
    await this.host.updateComplete;
    await panel.begin();
  }

  private onFrame = (e: Event): void => {
    const d = (e as CustomEvent<{ frame: number; source: string }>).detail;
    if (d.source !== 'host') this.panel?.sendFrame(d.frame);
  };

  private onClose = (): void => {
    this.panel = null;
    this.open = false;
    this.host.requestUpdate();
    void this.host.updateComplete.then(() =>
      this.host.shadowRoot?.querySelector<HTMLButtonElement>('.live-start')?.focus(),
    );
  };

  render() {
    const role = this.role;
    if (!role) return nothing;
    if (this.open && this.panel) return this.panel;
    return html`<button class="live-start" part="live-start" ?disabled=${this.loading} @click=${() => void this.start()}>${LIVE_BUTTON_TEXTS[role]}</button>`;
  }
}
