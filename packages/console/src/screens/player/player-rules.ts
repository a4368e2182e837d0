/** The player routes' rules: which mode an address opens, and the link "Share from here" copies. */
import { playerUrlAt } from '../tours/share-links.js';
import type { PlayerRouteMode } from './player-menu.js';

const MODE_BY_PATH: Record<string, PlayerRouteMode> = {
  '/previewplayer': 'preview',
  '/editplayer': 'edit',
  '/playerext': 'external',
  '/agentplayer': 'agent',
};

export const modeForPath = (pathname: string): PlayerRouteMode =>
  MODE_BY_PATH[pathname.replace(/\/+$/, '')] ?? 'external';

/**
 * "Share from here": the external link that opens at the room the visitor is in (or the frame, before any room).
 * Through an audience link, the link shared on is the same link (never the tour's own, which shows every room).
 */
export function shareFromHereLink(
  tourId: string,
  at: { room: string | null; frame: number },
  audienceLink: string | null | undefined,
  base?: string,
): string {
  const link = playerUrlAt(tourId, at, base);
  return audienceLink ? `${link}&link=${audienceLink}` : link;
}
