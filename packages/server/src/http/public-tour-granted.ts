import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/services.js';
import { playerTourAnswer } from '../services/public-tour-answer.js';
import { mediaExpiry, verifyGrant } from '../services/tour-access/grants.js';
import { capabilitiesOf } from './capabilities.js';
import { entryOf, tourUuid, type Entry, type PublicTourCache } from './public-tour-memory.js';
import { serverNow } from '../core/clock.js';

/**
 * A password tour asked with its grant (PLAYER_TOUR_ACCESS_QUERY over GET), or a tour through an audience link
 * (PLAYER_TOUR_LINK_QUERY, with a grant when the tour asks for one), the grant and the link's token in the request's
 * headers (http/capabilities.ts; still taken as variables from other clients): the same one-statement answer as a miss, its
 * files signed while the tour is protected, readable from any origin, and kept by no browser or CDN (`private,
 * no-store`). Anything it cannot answer (no or a stale grant: the gate; a link that no longer opens: its message;
 * errors) goes to GraphQL.
 *
 * The password tour's answer is the same for every holder of a live grant: its files are signed by access version and
 * an expiry that changes once an hour (grants.ts mediaExpiry). So the node keeps it in `granted`, by the tour id as
 * asked and that hour, with the access version it was made at, and serves it to a grant that verifies against that
 * version (an HMAC; no database work). The grant is checked on every request, before the answer is touched; a changed
 * password or access changes the version and drops the tour's answers (the same notices as the public answers), and an
 * answer computed while a change landed is not kept. A link's answer is never kept: whether the link still opens (its
 * expiry, its revocation) is read each time.
 */
export async function grantedAnswer(
  services: Services,
  req: FastifyRequest,
  reply: FastifyReply,
  byLink: boolean,
  granted: PublicTourCache,
): Promise<FastifyReply | undefined> {
  if (!reply.hasHeader('access-control-allow-origin')) reply.header('Access-Control-Allow-Origin', '*');
  const q = req.query as Record<string, unknown>;
  if (
    q.operationName !== undefined &&
    q.operationName !== '' &&
    q.operationName !== (byLink ? 'PlayerTourWithLink' : 'PlayerTourWithAccess')
  )
    return;
  let variables: Record<string, unknown>;
  try {
    variables = JSON.parse(typeof q.variables === 'string' ? q.variables : '{}') as Record<string, unknown>;
  } catch {
    return;
  }
  // The player sends its grant and the link's token in headers (CAPABILITY_HEADERS), never in this URL.
  const sent = capabilitiesOf(req.headers);
  const { tourID } = variables ?? {};
  const access = variables?.access ?? sent.access;
  const link = variables?.link ?? sent.link;
  // An answer made for a capability is kept by no browser or proxy, whoever answers it (here or GraphQL).
  if (sent.access || sent.link) reply.header('Cache-Control', 'private, no-store');
  if (typeof tourID !== 'string') return;
  if (
    byLink
      ? typeof link !== 'string' || (access !== undefined && access !== null && typeof access !== 'string')
      : typeof access !== 'string'
  )
    return;
  const grant = typeof access === 'string' ? access : undefined;
  const send = (body: string | Buffer) =>
    reply.code(200).header('Cache-Control', 'private, no-store').type('application/json; charset=utf-8').send(body);
  const tourId = tourUuid(tourID);
  if (byLink || !tourId || grant === undefined) {
    const answer = await playerTourAnswer(
      services,
      tourID,
      serverNow(services),
      grant,
      byLink ? (link as string) : undefined,
    );
    return answer === null ? undefined : send(answer.text);
  }
  const key = `${tourID}\u0000${mediaExpiry(serverNow(services).getTime())}`;
  const hit = granted.get(key);
  if (hit?.accessVersion !== undefined && verifyGrant(services, tourId, hit.accessVersion, grant))
    return send(hit.body);
  const generation = granted.generation(tourId);
  const answer = await playerTourAnswer(services, tourID, serverNow(services), grant);
  if (answer === null) return;
  const entry: Entry = { ...entryOf(tourId, answer.text), accessVersion: answer.accessVersion };
  granted.set(key, entry, generation);
  return send(entry.body);
}
