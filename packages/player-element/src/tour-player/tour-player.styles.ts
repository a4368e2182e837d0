import { css } from 'lit';

export const styles = css`
  :host {
    --tour-player-background: #1f1f1f;
    --tour-player-accent: var(--rw-company-accent, #1565c0);
    --tour-player-text: #fff;
    --tour-player-spinner-color: #9e9e9e;
    --tour-player-drawer-width: 250px;
    --tour-player-drawer-max-height: 400px;
    --tour-player-radius: 8px;
    /*
     * Pasted with no CSS, the element is as wide as its container and as tall as its picture needs: the picture at the
     * container's width (up to 650 px wide and 75 % of the window's height) in the tour's own shape, plus the title
     * bar, margins and the joystick's room (the in-flow .sizer below). A page's own height, or a parent with a height,
     * wins.
     */
    display: block;
    position: relative;
    overflow: hidden;
    width: 100%;
    min-height: 240px;
    height: 100%;
    background: var(--tour-player-background);
    color: var(--tour-player-text);
    font-family: system-ui, sans-serif;
    contain: content;
  }
  [hidden] { display: none !important; }
  .sizer { padding-top: calc(min((100% - 16px) * var(--r), 650px * var(--r), 75vh) + 144px); }
  .base { position: absolute; inset: 0; display: flex; flex-direction: column; }
  /* The blurred thumbnail, blurred at an eighth of its size and scaled up (the same picture): a full-size blur is
     redone on every composite in WebKitGTK (software GL), which took the first frame's CPU while the spinner turned. */
  .background {
    position: absolute; left: -24px; top: -24px; width: calc(12.5% + 6px); height: calc(12.5% + 6px);
    background-size: cover; background-position: center;
    filter: blur(2.25px) brightness(0.6); transform-origin: 0 0; transform: translate(-20%, -20%) scale(8.4);
  }
  .top-bar {
    position: relative; z-index: 2; display: flex; align-items: center; gap: 8px;
    padding: 8px 12px; min-height: 40px; background: rgba(0, 0, 0, 0.35);
  }
  .title { flex: 1; font-size: 16px; font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; margin: 0; }
  /* A size container: the live panel (its own styles) lays itself out beside the picture by the body's shape. */
  .body { position: relative; flex: 1; display: flex; min-height: 0; container-type: size; }
  /* The picture takes the stage's room less the joystick's (canvasSize keeps the same 80 px): a mobile drawer shrinks it. */
  /*
   * The whole stage takes swipes, not only the picture. Around the picture vertical swipes stay the page's (a listing
   * page scrolls past an embedded tour); on the picture and the joystick every direction is the tour's.
   */
  .stage {
    position: relative; flex: 1; display: flex; flex-direction: column; gap: 8px; align-items: center; justify-content: center; min-width: 0;
    container-type: size; --joystick-room: 80px; touch-action: pan-y; user-select: none; -webkit-user-select: none;
  }
  .direction-hint { position: absolute; inset: 40% 12px auto; z-index: 4; pointer-events: none; text-align: center; }
  .direction-hint > span { padding: 6px 12px; border-radius: 16px; background: #000b; }
  .frame { position: relative; }
  canvas {
    display: block; border-radius: var(--tour-player-radius); background: #000; touch-action: none;
    cursor: grab; outline: none;
  }
  canvas:focus-visible { box-shadow: 0 0 0 3px var(--tour-player-accent); }
  .buffer { position: absolute; left: 0; right: 0; bottom: 0; height: 4px; background: rgba(255, 255, 255, 0.2); border-radius: 0 0 var(--tour-player-radius) var(--tour-player-radius); overflow: hidden; }
  .buffer-bar { height: 100%; background: var(--tour-player-accent); transition: width 0.2s linear; }
  .intro-logo { position: absolute; top: 12px; left: 12px; max-width: 30%; max-height: 20%; transition: opacity 0.6s ease; pointer-events: none; }
  .intro-logo.faded { opacity: 0; }
  .poster { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; border-radius: var(--tour-player-radius); pointer-events: none; }
  /* Below the picture, never over it; in a bottom corner in viewports 550 px high or less. The notice sits above it. */
  .controls { position: relative; flex: none; z-index: 3; }
  .joystick {
    position: relative;
    width: 64px; height: 64px; border-radius: 50%; border: 2px solid rgba(255, 255, 255, 0.8);
    background: rgba(0, 0, 0, 0.45); color: #fff; font: inherit; font-size: 12px; cursor: grab; touch-action: none;
    display: flex; align-items: center; justify-content: center; text-align: center;
  }
  .joystick .hint { position: absolute; left: 72px; white-space: nowrap; background: rgba(0, 0, 0, 0.6); padding: 2px 8px; border-radius: 10px; }
  @media (max-height: 550px) {
    .stage { --joystick-room: 0px; padding-right: 80px; }
    .controls { position: absolute; right: 16px; bottom: 16px; }
    .joystick .hint { left: auto; right: 72px; }
    .controls .notice { left: auto; right: 0; transform: none; }
  }
  .drawer-toggle { background: none; border: 1px solid rgba(255,255,255,0.6); color: inherit; border-radius: 4px; padding: 4px 8px; cursor: pointer; font: inherit; }
  tour-markers-drawer { z-index: 2; width: var(--tour-player-drawer-width); max-height: min(100%, var(--tour-player-drawer-max-height)); align-self: flex-start; }
  /* Below the picture only in a narrow portrait box; on a phone on its side the drawer goes beside it (layout.ts). */
  :host([data-layout='mobile']:not([data-drawer-beside])) .body { flex-direction: column; }
  :host([data-layout='mobile']:not([data-drawer-beside])) tour-markers-drawer { width: auto; align-self: stretch; max-height: min(50%, var(--tour-player-drawer-max-height), var(--tour-player-drawer-fit, 100%)); }
  .overlay {
    position: absolute; inset: 0; z-index: 10; display: flex; align-items: center; justify-content: center;
    background: rgba(0, 0, 0, 0.55);
  }
  .loading { background: #616161; }
  /* The ring shows and turns after a second: a quick load shows the grey layer only, and nothing is redrawn each refresh
     while the first frame is made (in WebKitGTK every turn is a composite in software GL). */
  .spinner { width: 64px; height: 64px; border-radius: 50%; border: 6px solid rgba(255,255,255,0.25); border-top-color: var(--tour-player-spinner-color); animation: spin 1s linear 1s infinite, late 0s 1s both; }
  @keyframes spin { to { transform: rotate(360deg); } }
  @keyframes late { from { visibility: hidden; } }
  .dialog { background: #fff; color: #222; border-radius: var(--tour-player-radius); padding: 20px; max-width: 360px; box-shadow: 0 8px 30px rgba(0,0,0,.4); }
  .dialog h2 { margin: 0 0 8px; font-size: 18px; }
  .dialog p { margin: 0 0 12px; }
  .dialog .actions { display: flex; gap: 8px; justify-content: flex-end; }
  .dialog button, .dialog a.button { font: inherit; padding: 6px 14px; border-radius: 4px; border: 0; background: var(--tour-player-accent); color: #fff; cursor: pointer; text-decoration: none; }
  .dialog button.secondary { background: #e0e0e0; color: #222; }
  .dialog pre { white-space: pre-wrap; font-size: 12px; background: #f4f4f4; padding: 8px; max-height: 120px; overflow: auto; }
  .agent-card { max-width: 300px; }
  /* Listing Link and Whats Chat: real buttons (44 px targets, spaced), in the card and in the Tour Info panel. */
  .agent-card .actions, .info-panel .actions { display: flex; flex-wrap: wrap; gap: 10px; justify-content: flex-start; margin: 4px 0 12px; }
  .dialog a.button, .info-panel a.button {
    display: inline-flex; align-items: center; justify-content: center; min-height: 44px; padding: 10px 16px; box-sizing: border-box;
    border-radius: 6px; background: var(--tour-player-accent); color: #fff; font: inherit; font-weight: 600; text-decoration: none;
  }
  a.button:focus-visible { outline: 3px solid #fff; outline-offset: 2px; box-shadow: 0 0 0 5px #000; }
  .info-panel { width: 280px; padding: 12px; background: rgba(0,0,0,0.45); overflow: auto; }
  .info-panel h2 { font-size: 16px; margin: 0 0 8px; }
  .notice {
    position: absolute; left: 50%; bottom: 100px; transform: translateX(-50%); z-index: 20;
    background: #323232; color: #fff; padding: 8px 16px; border-radius: 4px; font-size: 14px;
  }
  .controls .notice { bottom: 72px; width: max-content; max-width: 90cqw; }
  .notice[data-variant='success'] { background: #2e7d32; }
  .notice[data-variant='warning'] { background: #b45309; } /* white on it 5.0:1 (WCAG AA; #ed6c02 was 3.1:1) */
  .notice[data-variant='error'] { background: #d32f2f; }
  .notice[data-variant='info'] { background: #0369a1; } /* 5.9:1 (#0288d1 was 3.9:1) */
  .debug { position: absolute; right: 4px; top: 44px; z-index: 5; font: 11px monospace; background: rgba(0,0,0,.6); padding: 4px; }
`;
