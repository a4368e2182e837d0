// mediabunny's declarations reference @types/dom-mediacapture-transform, whose MediaStreamVideoTrack narrows
// getVideoTracks() and breaks the player's live call (agora-transport.ts) when the console compiles it. The console uses
// none of those APIs: this empty package stands in for it (tsconfig typeRoots).
export {};
