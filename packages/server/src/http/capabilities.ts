/**
 * The capabilities a player request carries in its headers (CAPABILITY_HEADERS, docs/access-and-privacy.md "No
 * capability in a URL"): a password tour's grant with any gate passes, and an audience link's token. A header is in no
 * access log; the same values in a GET's query string would be.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { CAPABILITY_HEADERS } from '@roomwalk/shared/player-documents';

/** Longer than any list of capabilities the server signs: ignored. */
const MAX_HEADER_CHARS = 1000;

const one = (v: string | string[] | undefined): string | undefined =>
  typeof v === 'string' && v.length > 0 && v.length <= MAX_HEADER_CHARS ? v : undefined;

export function capabilitiesOf(headers: IncomingHttpHeaders): { access?: string; link?: string } {
  const access = one(headers[CAPABILITY_HEADERS.access]);
  const link = one(headers[CAPABILITY_HEADERS.link]);
  return { ...(access ? { access } : {}), ...(link ? { link } : {}) };
}
