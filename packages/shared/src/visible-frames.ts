/**
 * Which frames of a tour an audience link shows, and where they sit once the hidden ones are taken out. The server
 * builds a link's tour answer with it (only the visible clips, re-numbered; the visible markers, moved into the visible
 * frame space) and checks a link's media and beacons against it; the player plays the answer as any tour, so its
 * slider, scrub, drawer and decoding run over the visible frames only without knowing anything was taken out.
 *
 * A room is the stretch from its marker to the next marker (the last one to the end). A hidden room hides every clip
 * that holds any of its frames: a clip is fetched whole, so a clip half in a hidden room would hand its pictures over.
 * The cost is at most one clip (about a second) of the neighbouring room on either side.
 */

/** Frames [start, end) of the tour as processed. */
export interface FrameRange {
  start: number;
  end: number;
}

export interface ClipFrames {
  index: number;
  frameCount: number | null | undefined;
}

export interface MarkerFrame {
  id: string;
  frameIndex: number;
}

/** What the player assumes of a clip whose frame count is unknown (PLAYER.defaultClipFrameCount). */
export const DEFAULT_CLIP_FRAMES = 36;

const countOf = (c: ClipFrames): number => (c.frameCount && c.frameCount > 0 ? c.frameCount : DEFAULT_CLIP_FRAMES);

/** The frames each hidden room covers, in tour order (rooms' markers sorted by frame). */
export function hiddenRoomRanges(
  markers: readonly MarkerFrame[],
  hiddenIds: ReadonlySet<string>,
  totalFrames: number,
): FrameRange[] {
  const sorted = [...markers].sort((a, b) => a.frameIndex - b.frameIndex);
  const out: FrameRange[] = [];
  sorted.forEach((m, i) => {
    if (!hiddenIds.has(m.id)) return;
    const start = Math.max(0, Math.floor(m.frameIndex));
    const end = Math.min(totalFrames, Math.floor(sorted[i + 1]?.frameIndex ?? totalFrames));
    if (end > start) out.push({ start, end });
  });
  return out;
}

/**
 * A tour's frames as one audience link sees them: the clips it keeps (in play order) and the mapping between the
 * tour's frame numbers and the link's.
 */
export class VisibleFrames {
  /** Indexes (the clips' own `index`) of the clips the link keeps, in play order. */
  readonly keptClips: number[];
  /** The kept frames, in the tour's numbering, merged where clips follow each other. */
  readonly ranges: FrameRange[];
  /** How many frames the link shows. */
  readonly count: number;
  /** The tour's own frame count (every clip). */
  readonly totalFrames: number;

  constructor(clips: readonly ClipFrames[], markers: readonly MarkerFrame[], hiddenMarkerIds: Iterable<string>) {
    const ordered = [...clips].sort((a, b) => a.index - b.index);
    const total = ordered.reduce((n, c) => n + countOf(c), 0);
    this.totalFrames = total;
    const hidden = hiddenRoomRanges(markers, new Set(hiddenMarkerIds), total);
    this.keptClips = [];
    this.ranges = [];
    let at = 0;
    for (const c of ordered) {
      const span = { start: at, end: at + countOf(c) };
      at = span.end;
      if (hidden.some((h) => h.start < span.end && h.end > span.start)) continue;
      this.keptClips.push(c.index);
      const last = this.ranges[this.ranges.length - 1];
      if (last && last.end === span.start) last.end = span.end;
      else this.ranges.push(span);
    }
    this.count = this.ranges.reduce((n, r) => n + r.end - r.start, 0);
  }

  /** Whether the link hides anything at all. */
  get hidesAny(): boolean {
    return this.count < this.totalFrames;
  }

  /** The link's frame number of a tour frame; null when that frame is hidden. */
  toVisible(frame: number): number | null {
    let before = 0;
    for (const r of this.ranges) {
      if (frame < r.start) return null;
      if (frame < r.end) return before + frame - r.start;
      before += r.end - r.start;
    }
    return null;
  }

  /** The tour frame a link's frame number shows (clamped to the visible frames). */
  toTour(visible: number): number {
    let left = Math.max(0, Math.min(Math.floor(visible), this.count - 1));
    for (const r of this.ranges) {
      if (left < r.end - r.start) return r.start + left;
      left -= r.end - r.start;
    }
    return 0;
  }

  /**
   * Where a room starts for the link: its marker's frame when visible, else the first visible frame of the room (its
   * start was swallowed by a hidden neighbour's clip); null when none of the room is left.
   */
  roomStart(frame: number, nextFrame: number): number | null {
    const direct = this.toVisible(Math.floor(frame));
    if (direct !== null) return direct + (frame - Math.floor(frame));
    for (const r of this.ranges) {
      const s = Math.max(r.start, Math.ceil(frame));
      if (s < Math.min(r.end, nextFrame)) return this.toVisible(s);
    }
    return null;
  }
}
