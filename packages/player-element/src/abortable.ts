/** The rejection of a cancelled call. */
const abortError = (): DOMException => new DOMException('The operation was aborted.', 'AbortError');

/** A cancelled call's rejection (abortable's, or fetch's with an aborted signal). */
export const isAbortError = (e: unknown): boolean => (e as { name?: unknown } | null)?.name === 'AbortError';

/**
 * Settles as `call` does, or rejects with an AbortError as soon as `signal` aborts (at once when it already has, and
 * then a call given as a function is not started), as squoosh's `abortable`: a cancelled call ends its caller's async
 * code by itself, so callers keep no guards. `dropLate` takes a value that comes after the cancel (an ImageBitmap to
 * close, say).
 */
export function abortable<T>(
  signal: AbortSignal,
  call: Promise<T> | (() => Promise<T>),
  dropLate?: (value: T) => void,
): Promise<T> {
  if (signal.aborted) {
    if (dropLate && typeof call !== 'function') void call.then(dropLate, () => undefined);
    return Promise.reject(abortError());
  }
  const promise = typeof call === 'function' ? call() : call;
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      reject(abortError());
      if (dropLate) void promise.then(dropLate, () => undefined);
    };
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(e);
      },
    );
  });
}

/** A rejection handler that reports a failure and lets a cancel pass quietly (the caller was cancelled, not failed). */
export const unlessAborted =
  (onFailure: (e: unknown) => void) =>
  (e: unknown): void => {
    if (!isAbortError(e)) onFailure(e);
  };
