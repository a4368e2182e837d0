/**
 * The Agora Web SDK (`agora-rtc-sdk-ng`) as one module. Nothing imports it statically: `AgoraTransport` imports it
 * when an Agora call starts, so it is a chunk of its own in every build — `dist/tour-player-agora.js` next to the
 * script-tag bundle (scripts/build.mjs), a split chunk for bundlers (dist/esm, the console's Vite build).
 */
export { default } from 'agora-rtc-sdk-ng';
