/// <reference lib="webworker" />
/**
 * The bitmap of a decoded frame at the canvas's backing size, never above the frame's own (the same rule as sizeFor
 * in controllers/canvas-controller.ts, so the main thread finds it under the size it asks for). Made by the decode
 * worker for the frame a jump waits for, straight from the VideoFrame: the first paint after a jump skips the
 * paint worker's round trip.
 */
export function frameBitmap(frame: VideoFrame, width: number, canvas: { width: number; height: number }): Promise<ImageBitmap | undefined> {
  const s = Math.min(1, width / canvas.width);
  // Without it the frame is still painted, through the paint worker.
  return createImageBitmap(frame, { resizeWidth: Math.round(canvas.width * s), resizeHeight: Math.round(canvas.height * s) }).catch(() => undefined);
}
