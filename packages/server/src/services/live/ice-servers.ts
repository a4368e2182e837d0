/** ICE servers for the WebRTC transport, from the ICE_SERVERS setting (JSON, RTCIceServer[]). */
import { z } from 'zod';

export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

const IceServersSchema = z.array(
  z.object({
    urls: z.union([
      z.string().regex(/^(stun|stuns|turn|turns):/i),
      z.array(z.string().regex(/^(stun|stuns|turn|turns):/i)).min(1),
    ]),
    username: z.string().optional(),
    credential: z.string().optional(),
  }),
);

/** Used when ICE_SERVERS is not set: one public STUN server, enough for most home networks (no relay). */
const DEFAULT_ICE_SERVERS: IceServer[] = [{ urls: 'stun:stun.l.google.com:19302' }];

/** Parses ICE_SERVERS; throws a readable error on a bad value so a wrong setting stops the start, not a call. */
export function parseIceServers(raw: string | undefined): IceServer[] {
  if (raw === undefined || raw.trim() === '') return DEFAULT_ICE_SERVERS;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error(
      'Invalid settings:\n  ICE_SERVERS: not valid JSON (expected an array like [{"urls":"stun:host:3478"}])',
    );
  }
  const parsed = IceServersSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(`Invalid settings:\n  ICE_SERVERS: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data.map((s) => ({
    urls: s.urls,
    ...(s.username ? { username: s.username } : {}),
    ...(s.credential ? { credential: s.credential } : {}),
  }));
}
