/** Human check (Cloudflare Turnstile siteverify). Without a secret, in development, the spec's dummy token passes. */
import { DEV_TURNSTILE_TOKEN } from '@roomwalk/shared';

export interface HumanCheck {
  verify(token: string | null | undefined, ip?: string): Promise<boolean>;
}

export function createHumanCheck(opts: {
  secret?: string | undefined;
  verifyUrl: string;
  isDev: boolean;
  fetchImpl?: typeof fetch;
}): HumanCheck {
  const doFetch = opts.fetchImpl ?? fetch;
  return {
    async verify(token, ip) {
      if (!token) return false;
      if (!opts.secret) return opts.isDev && token === DEV_TURNSTILE_TOKEN;
      const body = new URLSearchParams({ secret: opts.secret, response: token });
      if (ip) body.set('remoteip', ip);
      try {
        const res = await doFetch(opts.verifyUrl, { method: 'POST', body, signal: AbortSignal.timeout(5000) });
        if (!res.ok) return false;
        const data = (await res.json()) as { success?: unknown };
        return data.success === true;
      } catch {
        return false;
      }
    },
  };
}
