import { css } from 'lit';

/** `<tour-live-panel>`'s shadow styles. */
export const styles = css`
    /*
     * A flex item of the player's body, beside the picture, never over it: a side column left of it (right after Move)
     * in a landscape body, above it (below after Move) across the width in a portrait one (the body is a size
     * container).
     */
    :host { order: -1; width: clamp(150px, 24%, 300px); position: relative; z-index: 6; display: block; flex: none; align-self: flex-start; box-sizing: border-box; padding: 8px; max-height: 100%; overflow: auto; font: 14px/1.4 system-ui, sans-serif; color: #fff; container-type: inline-size; }
    :host([dock='end']) { order: 1; }
    @container (orientation: portrait) { :host { width: auto; align-self: stretch; max-height: 50%; } }
    .card { background: rgba(20, 20, 24, 0.92); border-radius: var(--tour-player-radius, 8px); padding: 8px; box-shadow: 0 4px 16px rgba(0,0,0,.4); }
    h2 { font-size: 16px; margin: 0 0 8px; }
    form { display: grid; gap: 6px; }
    .field { display: grid; gap: 2px; }
    label { font-size: 13px; }
    input { font: inherit; padding: 6px 8px; border-radius: 4px; border: 1px solid #888; background: #fff; color: #111; }
    input[aria-invalid='true'] { border-color: #f44336; }
    .phone { display: grid; grid-template-columns: minmax(0, 9em) minmax(0, 1fr); gap: 4px; }
    select { font: inherit; padding: 6px 4px; border-radius: 4px; border: 1px solid #888; background: #fff; color: #111; min-width: 0; }
    .err { color: #ff8a80; font-size: 12px; }
    .row { display: flex; gap: 6px; justify-content: flex-end; flex-wrap: wrap; }
    button { font: inherit; cursor: pointer; border: 0; border-radius: 4px; padding: 6px 10px; background: var(--tour-player-accent, #1976d2); color: #fff; }
    button.secondary { background: #444; }
    /* A pressed toggle (Sync On, Mute on, Camera Off) is a state, not a danger: light, never the Hang Up red. */
    button[aria-pressed='true'] { background: #e8eaed; color: #111; }
    button:focus-visible, input:focus-visible, select:focus-visible { outline: 2px solid #fff; outline-offset: 2px; }
    .call-head { display: flex; justify-content: space-between; align-items: center; gap: 6px; margin-bottom: 4px; }
    .call-title { font-weight: 600; font-size: 13px; }
    .call-head button { padding: 2px 8px; background: #333; font-size: 12px; }
    /* Small tiles: side by side where the panel is wide (a phone upright), one above the other in a side column. */
    .tiles { display: grid; grid-template-columns: minmax(0, 160px); gap: 6px; margin-bottom: 6px; }
    @container (min-width: 300px) { .tiles { grid-template-columns: repeat(2, minmax(0, 160px)); } }
    .panel { position: relative; background: #000; border-radius: 6px; overflow: hidden; }
    .panel video { display: block; width: 100%; aspect-ratio: 4 / 3; object-fit: cover; background: #111; }
    .panel .text { position: absolute; inset: 0; display: grid; place-items: center; text-align: center; padding: 8px; background: rgba(0,0,0,.55); }
    .panel-head { display: flex; justify-content: space-between; align-items: center; font-size: 12px; margin: 2px 0; }
    .panel-head button { padding: 2px 8px; background: #333; }
    .bar { display: flex; gap: 6px; justify-content: space-between; flex-wrap: wrap; }
    .bar button.hangup { background: #c62828; }
    .error { color: #ff8a80; margin: 4px 0; }
    .toasts { display: grid; gap: 6px; margin-bottom: 6px; }
    .toast { background: #b45309; color: #fff; padding: 8px; border-radius: 6px; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  `;
