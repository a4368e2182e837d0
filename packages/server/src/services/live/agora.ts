/** Agora RTC tokens, issued with Agora's official token builder when AGORA_APP_ID and AGORA_APP_CERTIFICATE are set. */
import agoraToken from 'agora-token';
import type { Config } from '../../config.js';

const { RtcRole, RtcTokenBuilder } = agoraToken;

export interface AgoraGrant {
  appId: string;
  rtcToken: string;
}

export function agoraConfigured(config: Pick<Config, 'AGORA_APP_ID' | 'AGORA_APP_CERTIFICATE'>): boolean {
  return Boolean(config.AGORA_APP_ID && config.AGORA_APP_CERTIFICATE);
}

/** The channel of a viewing session: its id (a uuid is 36 characters, within Agora's 64-byte limit). */
const agoraChannel = (sessionId: string) => sessionId;

/**
 * A publisher token for `account` in the session's channel, valid until `expiresAt`; null when Agora is not set up.
 * Agora counts the token's life from its own clock, so it is given what is left of the session by ours (`now`, the
 * server's clock).
 */
export function agoraGrant(
  config: Pick<Config, 'AGORA_APP_ID' | 'AGORA_APP_CERTIFICATE'>,
  sessionId: string,
  account: string,
  expiresAt: Date,
  now: Date,
): AgoraGrant | null {
  if (!agoraConfigured(config)) return null;
  const ttl = Math.max(60, Math.ceil((expiresAt.getTime() - now.getTime()) / 1000));
  const rtcToken = RtcTokenBuilder.buildTokenWithUserAccount(
    config.AGORA_APP_ID!,
    config.AGORA_APP_CERTIFICATE!,
    agoraChannel(sessionId),
    account,
    RtcRole.PUBLISHER,
    ttl,
    ttl,
  );
  return { appId: config.AGORA_APP_ID!, rtcToken };
}
