/**
 * fetch with the spec's network behaviour: 5 s timeout, retries of 500/503/504 after 3.2 s and 6.4 s, 401
 * → logout.
 */
import { RETRY_STATUS_CODES, TIMINGS_MS } from '@roomwalk/shared';

export class RequestTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The request took longer than ${timeoutMs} ms.`);
    this.name = 'RequestTimeoutError';
  }
}

export interface PolicyOptions {
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
  retryDelays?: readonly number[];
  retryStatuses?: readonly number[];
  /** Called when the server answers 401. */
  onUnauthorized?: () => void;
  /** Where errors are reported; development only by default. */
  log?: (message: string, detail?: unknown) => void;
}

function wait(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function fetchWithTimeout(
  fetchImpl: typeof fetch,
  input: RequestInfo | URL,
  init: RequestInit | undefined,
  timeoutMs: number,
): Promise<Response> {
  const controller = new AbortController();
  const outer = init?.signal;
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  const timeout = new RequestTimeoutError(timeoutMs);
  const timer = setTimeout(() => controller.abort(timeout), timeoutMs);
  try {
    return await fetchImpl(input, { ...init, signal: controller.signal });
  } catch (err) {
    throw controller.signal.reason === timeout ? timeout : err;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

const devLog = (message: string, detail?: unknown) => {
  if (import.meta.env.DEV) console.error(message, detail);
};

/** Builds a fetch that applies the timeout, retry and 401 rules to every request it sends. */
export function createPolicyFetch(opts: PolicyOptions = {}): typeof fetch {
  const timeoutMs = opts.timeoutMs ?? TIMINGS_MS.requestTimeout;
  const delays = opts.retryDelays ?? TIMINGS_MS.retryDelays;
  const statuses = opts.retryStatuses ?? RETRY_STATUS_CODES;
  const log = opts.log ?? devLog;
  return async (input, init) => {
    const fetchImpl = opts.fetchImpl ?? globalThis.fetch.bind(globalThis);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetchWithTimeout(fetchImpl, input, init, timeoutMs);
      } catch (err) {
        log('Request failed', err);
        throw err;
      }
      if (response.status === 401) {
        log('Request unauthorised (401): logging out');
        opts.onUnauthorized?.();
        return response;
      }
      const delay = delays[attempt];
      if (statuses.includes(response.status) && delay !== undefined) {
        log(`Server answered ${response.status}; retrying in ${delay} ms`);
        await wait(delay, init?.signal);
        continue;
      }
      if (!response.ok) log(`Server answered ${response.status}`);
      return response;
    }
  };
}
