/** The player address flags, read from the query and mapped onto <tour-player> attributes. */
import { AUDIENCE_LINK_TOKEN, DISABLED_CONTROLS } from '@roomwalk/shared';

export interface PlayerFlags {
  tourId: string;
  /** Lower-case, known values only (menu, markers, feedback, ai-edit). */
  disabledControls: string[];
  liveViewing: boolean;
  hostEvents: boolean;
  hiRes: boolean;
  debug: boolean;
  disableCookies: boolean;
  enableAIEdit: boolean;
  /** hostOrigins: the listing page origins whose roomwalk_scroll / roomwalk_marker messages the player obeys. */
  hostOrigins: string[];
  /** Deep link: open at this room (marker name) or frame. */
  room: string;
  frame: number | undefined;
  /** MLS mode: unbranded=true. */
  unbranded: boolean;
  /** An audience link's token (link=…): the tour as that link shows it; '' for the tour's own link. */
  audienceLink: string;
}

/** At most this many host origins are taken from the address. */
export const MAX_HOST_ORIGINS = 10;

/** `https://a.example, http://localhost:8080/` -> valid http(s) origins only (no paths, no '*'), normalised, unique. */
export function readHostOrigins(value: string | null): string[] {
  const out = new Set<string>();
  for (const raw of (value ?? '').split(',')) {
    const s = raw.trim().replace(/\/+$/, '');
    if (!s) continue;
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      continue;
    }
    if (
      (u.protocol !== 'https:' && u.protocol !== 'http:') ||
      u.pathname !== '/' ||
      u.search ||
      u.hash ||
      u.username ||
      u.password
    )
      continue;
    out.add(u.origin);
    if (out.size >= MAX_HOST_ORIGINS) break;
  }
  return [...out];
}

const isTrue = (v: string | null): boolean => v?.trim().toLowerCase() === 'true';

export function readPlayerFlags(search: string): PlayerFlags {
  const q = new URLSearchParams(search);
  const known = new Set<string>(DISABLED_CONTROLS);
  const disabledControls = (q.get('disabledControls') ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => known.has(s));
  const liveViewing = isTrue(q.get('liveViewing'));
  const debugValue = q.get('debugPlayer');
  const hostOrigins = readHostOrigins(q.get('hostOrigins'));
  return {
    tourId: (q.get('tourId') ?? '').trim(),
    disabledControls: [...new Set(disabledControls)],
    liveViewing,
    // Naming the host's origins asks for its messages: host events on.
    hostEvents: isTrue(q.get('hostEventEnabled')) || liveViewing || hostOrigins.length > 0,
    hiRes: q.get('hiRes')?.trim().toLowerCase() !== 'false',
    // Present and not 'false' turns debug on (its effect is the element's).
    debug: debugValue !== null && debugValue.trim().toLowerCase() !== 'false',
    disableCookies: isTrue(q.get('disableCookies')),
    enableAIEdit: isTrue(q.get('enableAIEdit')),
    hostOrigins,
    room: (q.get('room') ?? '').trim().slice(0, 200),
    frame: /^\d{1,7}$/.test(q.get('frame')?.trim() ?? '') ? Number(q.get('frame')!.trim()) : undefined,
    unbranded: isTrue(q.get('unbranded')),
    audienceLink: AUDIENCE_LINK_TOKEN.test(q.get('link')?.trim() ?? '') ? q.get('link')!.trim() : '',
  };
}

/** Attributes for <tour-player> from the flags (booleans absent when false; hi-res="false" only when off). */
export function playerAttributes(f: PlayerFlags): Record<string, string> {
  const a: Record<string, string> = {};
  if (f.disabledControls.length) a['disabled-controls'] = f.disabledControls.join(',');
  if (f.liveViewing) a['live-viewing'] = '';
  if (f.hostEvents) a['host-events'] = '';
  if (!f.hiRes) a['hi-res'] = 'false';
  if (f.debug) a.debug = '';
  if (f.hostOrigins.length) a['allowed-origins'] = f.hostOrigins.join(',');
  if (f.room) a['start-room'] = f.room;
  if (f.frame !== undefined) a['start-frame'] = String(f.frame);
  if (f.unbranded) a.unbranded = '';
  if (f.audienceLink) a['audience-link'] = f.audienceLink;
  return a;
}

/** The floating AI Edit button: enableAIEdit=true, unless disabledControls has ai-edit or liveViewing is set. */
export function showAiEdit(search: string): boolean {
  const f = readPlayerFlags(search);
  return f.enableAIEdit && !f.disabledControls.includes('ai-edit') && !f.liveViewing;
}

/** Fixed sample tour of /embedded_example: a meta tag may name one; else the seeded sample id. */
export const EMBED_SAMPLE_TOUR_ID = 'tour_00000000-0000-4000-8000-000000000001';

/** The id /embedded_example shows: the last path segment, or the sample when that segment is 'embedded_example'. */
export function embeddedTourId(pathname: string, sample: string = EMBED_SAMPLE_TOUR_ID): string {
  const last = pathname.replace(/\/+$/, '').split('/').pop() ?? '';
  return !last || last === 'embedded_example' ? sample : decodeURIComponent(last);
}
