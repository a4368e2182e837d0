/** The live viewing socket's limits (http/tour-viewer-ws.ts), against floods and amplification. */
import { MAX_FRAME_INDEX } from '@roomwalk/shared/schemas/socket-messages';

export const LIVE_LIMITS = {
  /** A scroll message is tiny; anything bigger is not one of ours. */
  scrollMessageBytes: 1024,
  /** Signalling carries SDP (a few KB with audio and video). */
  signalMessageBytes: 16 * 1024,
  /** Token bucket per connection: a burst of 100 messages, 50 a second sustained (scrolls come at most every 33 ms). */
  burst: 100,
  perSecond: 50,
  /** Messages a client may send before it is authenticated. */
  preAuthMessages: 20,
  /** How long a socket may take to send its credentials (its first message) before it is closed. */
  helloMs: 10_000,
  heartbeatMs: 30_000,
  maxFrameIndex: MAX_FRAME_INDEX,
  /**
   * Against amplification: one socket per participant (token) in a room: a newer one replaces the older (4005).
   * A room is one visitor and the agency's hosts; six sockets on a node leave the agent five colleagues (4009 beyond).
   */
  maxPeersPerRoom: 6,
  /**
   * Scrolls relayed into one room: the same bucket as one socket's (so a single sender never notices); beyond it a
   * sender's latest position waits and replaces its earlier one. Deliveries per room ≤ 50/s × 5 others sustained.
   */
  roomScrollBurst: 100,
  roomScrollPerSecond: 50,
} as const;
