/**
 * The server's log settings: every line is written through `redactSecrets`, so capabilities never reach a log, whatever
 * wrote the line (access logs, errors, a URL inside a message). A capability is anything that grants access to whoever
 * holds it: upload signatures (`sig=`), one-time and OAuth tokens in a query (`token=`, `access_token=`, `code=`,
 * `inviteToken=`…), API keys (`rw_live_…`), seller report links (`rws_…`), session tokens (JWTs, `Bearer …`), any
 * long random path segment (billing portal sessions, future links), and tour access: a password grant or gate pass
 * (`access=`, `pass=`, `grant=`), an audience link's token (`link=`, the share page's URL), in a query string or as a
 * value inside a query's JSON, URL-encoded or not (`variables={"access":"…"}`), and the signature part of any grant,
 * pass or wait credential wherever it stands (a long run after a dot).
 */
import type { Writable } from 'node:stream';
import type { FastifyServerOptions } from 'fastify';
import { ERROR_CODES } from '@roomwalk/shared';
import type { Config } from '../config.js';

const REDACTED = '[redacted]';
const SECRET_PARAMS =
  /([?&;](?:sig|signature|token|access_token|refresh_token|id_token|code|state|inviteToken|session|apiKey|api_key|password|access|pass|grant|link|X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token)=)[^&#"\s\\]*/gi;
/**
 * A capability as a JSON value inside a query string (GraphQL over GET: `variables={"access":"…","link":"…"}`), plain
 * or URL-encoded once or twice (`%22access%22%3A%22…%22`, `%2522…`).
 */
const JSON_CAPABILITY =
  /((?:\\?"|%22|%2522)(?:access|pass|grant|link|token|password)(?:\\?"|%22|%2522)\s*(?::|%3A|%253A)\s*(?:\\?"|%22|%2522))(?:(?!"|%22|%2522)[^&#\\\n])*/gi;
const API_KEY = /\brw_live_[A-Za-z0-9_-]+/g;
const SELLER_LINK = /\brws_[A-Za-z0-9_-]+/g;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer|Basic)\s+[^\s"\\]+/gi;
/**
 * A long random run after `/`, `=`, `.`, `:`, a quote or their URL encodings (a path segment, a query value, the MAC of
 * a grant, pass or wait credential); plain hex (ids, hashes) is no secret.
 */
const LONG_TOKEN = /(?:(?<=[/=.:"'])|(?<=%2[2F7]|%3[ADad]|%2f))[A-Za-z0-9_-]{32,}/g;

/** Ids and hashes (hex, a uuid, a global id such as `tour_<uuid>`): no secret. */
const PLAIN_ID = /^(?:[a-z]+_)?[0-9a-f-]+$/i;

/** The text with every capability it carries replaced by "[redacted]". */
export function redactSecrets(text: string): string {
  return text
    .replace(SECRET_PARAMS, `$1${REDACTED}`)
    .replace(JSON_CAPABILITY, `$1${REDACTED}`)
    .replace(API_KEY, `rw_live_${REDACTED}`)
    .replace(SELLER_LINK, `rws_${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(LONG_TOKEN, (run) => (PLAIN_ID.test(run) ? run : REDACTED));
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
