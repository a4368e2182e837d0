/** What the decoder reports to the player (DecodeController's host). */
export interface DecodeEvents {
  /** A frame that may change what is on screen has arrived. */
  onFramesArrived(): void;
  onDecodeError(message: string): void;
  onLoadedFramesChange(loaded: number): void;
}
