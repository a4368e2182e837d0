/** Share targets of a tour: the external player link, its iframe code and the share text. */
import { formatTexts } from '@roomwalk/shared';

const origin = (): string => window.location.origin;

/**
 * The share URL, QR target and iframe source: /playerext?tourId=…, with &liveViewing=true when the owner offers live
 * viewing on the tour (docs/live-viewing.md), so the buyer sees "Talk to Agent".
 */
export function externalPlayerUrl(tourId: string, base: string = origin(), liveViewing = false): string {
  return `${base.replace(/\/+$/, '')}/playerext?tourId=${encodeURIComponent(tourId)}${liveViewing ? '&liveViewing=true' : ''}`;
}

/**
 * An audience link as the console hands it out: with &liveViewing=true when the owner offers live viewing, like every
 * branded link (an unbranded link never carries it: no live call in MLS mode).
 */
export function audienceLinkUrl(url: string, liveViewing: boolean, unbranded: boolean): string {
  if (!liveViewing || unbranded || /[?&]liveViewing=/.test(url)) return url;
  return `${url}${url.includes('?') ? '&' : '?'}liveViewing=true`;
}

/** The unbranded (MLS) link: /playerext?tourId=…&unbranded=true, never with live viewing (no live call in MLS mode). */
export function unbrandedPlayerUrl(tourId: string, base: string = origin()): string {
  return `${externalPlayerUrl(tourId, base)}&unbranded=true`;
}

/** A link that opens the tour at a room (?room=) or, between rooms, at a frame (?frame=). */
export function playerUrlAt(
  tourId: string,
  at: { room?: string | null; frame?: number },
  base: string = origin(),
): string {
  const url = externalPlayerUrl(tourId, base);
  if (at.room) return `${url}&room=${encodeURIComponent(at.room)}`;
  return at.frame !== undefined && at.frame > 0 ? `${url}&frame=${Math.round(at.frame)}` : url;
}

/**
 * The embed source: the external player with the feedback control off, as embeds set it; `hostOrigins`
 * names the listing site's origins, whose window messages the player then obeys.
 */
export function embedUrl(
  tourId: string,
  base: string = origin(),
  hostOrigins: readonly string[] = [],
  liveViewing = false,
): string {
  const hosts = hostOrigins.length ? `&hostOrigins=${hostOrigins.map(encodeURIComponent).join(',')}` : '';
  return `${externalPlayerUrl(tourId, base, liveViewing)}&disabledControls=feedback${hosts}`;
}

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The iFrame Code copied to the clipboard. `allow="fullscreen"` only: with `allowfullscreen` beside it Chromium warns
 * "Allow attribute will take precedence over 'allowfullscreen'" on the listing page's console.
 */
export function iframeCode(
  tourId: string,
  title: string | null | undefined,
  base: string = origin(),
  hostOrigins: readonly string[] = [],
  liveViewing = false,
): string {
  const name = escapeAttr(title?.trim() || 'Roomwalk tour');
  return `<iframe src="${escapeAttr(embedUrl(tourId, base, hostOrigins, liveViewing))}" title="${name}" width="100%" height="600" style="border:0" allow="fullscreen; camera; microphone; clipboard-write"></iframe>`;
}

/**
 * The Script Tag code: the player bundle and a `<tour-player>` (docs/embedding.md §2). It sizes itself (full width, as
 * tall as its picture needs); the page's own messages need no origin list (the element lives in the page).
 */
export function scriptTagCode(tourId: string, base: string = origin(), liveViewing = false): string {
  const b = base.replace(/\/+$/, '');
  return `<script src="${escapeAttr(`${b}/player/tour-player.js`)}"></script>\n<tour-player tour-id="${escapeAttr(tourId)}" mode="external"${liveViewing ? ' live-viewing' : ''}></tour-player>`;
}

export interface ShareData {
  title: string;
  text: string;
  url: string;
}

/** What Share sends: the spec's text and the external link (live when the owner offers live viewing). */
export function shareData(
  tourId: string,
  title: string | null | undefined,
  base: string = origin(),
  liveViewing = false,
): ShareData {
  const t = title?.trim() ?? '';
  return { title: t, text: formatTexts.shareText(t), url: externalPlayerUrl(tourId, base, liveViewing) };
}

/** Shares with the Web Share API where present; else copies the text and link. Resolves to what happened. */
export async function shareTour(
  data: ShareData,
  copy: (text: string) => Promise<void>,
  nav: Pick<Navigator, 'share'> | undefined = typeof navigator === 'undefined' ? undefined : navigator,
): Promise<'shared' | 'copied' | 'cancelled'> {
  if (nav && typeof nav.share === 'function') {
    try {
      await nav.share(data);
      return 'shared';
    } catch (e) {
      if ((e as Error).name === 'AbortError') return 'cancelled';
      // Not allowed here (no user activation, insecure context): fall back to the clipboard.
    }
  }
  await copy(`${data.text} ${data.url}`);
  return 'copied';
}
