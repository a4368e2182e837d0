/// <reference lib="webworker" />
/**
 * The bitmap of a decoded frame at the canvas's backing size, or the frame's own when it is narrower (the same rule as
 * sizeFor in controllers/canvas-controller.ts, so the main thread finds it under the size it asks for). Made by the
 * decode worker for the frame a jump waits for, straight from the VideoFrame: the first paint after a jump skips the
 * paint worker's round trip.
 */
export function frameBitmap(frame: VideoFrame, size: { width: number; height: number }, canvas: { width: number; height: number }): Promise<ImageBitmap | undefined> {
  // Without it the frame is still painted, through the paint worker.
  const made = size.width < canvas.width ? createImageBitmap(frame) : createImageBitmap(frame, { resizeWidth: canvas.width, resizeHeight: canvas.height });
  return made.catch(() => undefined);
}
