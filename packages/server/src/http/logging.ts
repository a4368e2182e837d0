/**
 * The server's log settings: every line is written through `redactSecrets`, so capabilities never reach a log, whatever
 * wrote the line (access logs, errors, a URL inside a message). A capability is anything that grants access to whoever
 * holds it: upload signatures (`sig=`), one-time and OAuth tokens in a query (`token=`, `access_token=`, `code=`,
 * `inviteToken=`…), API keys (`rw_live_…`), seller report links (`rws_…`), session tokens (JWTs, `Bearer …`), and any
 * long random path segment (billing portal sessions, future links).
 */
import type { Writable } from 'node:stream';
import type { FastifyServerOptions } from 'fastify';
import { ERROR_CODES } from '@roomwalk/shared';
import type { Config } from '../config.js';

const REDACTED = '[redacted]';
const SECRET_PARAMS =
  /([?&;](?:sig|signature|token|access_token|refresh_token|id_token|code|state|inviteToken|session|apiKey|api_key|password|X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token)=)[^&#"\s\\]*/gi;
const API_KEY = /\brw_live_[A-Za-z0-9_-]+/g;
const SELLER_LINK = /\brws_[A-Za-z0-9_-]+/g;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer|Basic)\s+[^\s"\\]+/gi;
/** A long random run after `/` or `=` (a path segment or a query value); plain hex (ids, hashes) is no secret. */
const LONG_TOKEN = /(?<=[/=])[A-Za-z0-9_-]{32,}/g;

/** The text with every capability it carries replaced by "[redacted]". */
export function redactSecrets(text: string): string {
  return text
    .replace(SECRET_PARAMS, `$1${REDACTED}`)
    .replace(API_KEY, `rw_live_${REDACTED}`)
    .replace(SELLER_LINK, `rws_${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(LONG_TOKEN, (run) => (/^[0-9a-f-]+$/i.test(run) ? run : REDACTED));
}

/** A GraphQL error a client caused: it carries a code other than INTERNAL (ours or graphql's validation). */
const isClientGraphqlError = (e: unknown): boolean => {
  const code = (e as { extensions?: { code?: unknown } } | null)?.extensions?.code;
  return typeof code === 'string' && code !== ERROR_CODES.INTERNAL;
};

/**
 * Client mistakes are not server errors: Mercurius logs the errors of a refused subscription (not signed in, unknown
 * field) at error level; a line whose only payload is such GraphQL errors is written at info instead.
 */
function clientErrorsAtInfo(
  this: { info(obj: object, msg: string): void },
  args: unknown[],
  method: (...args: unknown[]) => void,
  level: number,
): void {
  const [first] = args;
  const errors = Array.isArray(first) ? first : [first];
  if (level >= 50 && args.length === 1 && errors.length > 0 && errors.every(isClientGraphqlError)) {
    this.info(
      {
        graphqlErrors: errors.map((e) => ({
          message: (e as { message?: unknown }).message,
          code: (e as { extensions: { code: string } }).extensions.code,
        })),
      },
      'refused a client request',
    );
    return;
  }
  method.apply(this, args);
}

/** Fastify's logger: the configured level, every line redacted; `stream` replaces stdout (tests read the lines). */
export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>, stream?: Writable): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    hooks: { streamWrite: redactSecrets, logMethod: clientErrorsAtInfo },
    ...(stream ? { stream } : {}),
  };
}
