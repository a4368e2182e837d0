/**
 * A cut-off recording: the file ends before the length its index declares (an upload or a copy stopped
 * part-way), and processing keeps the frames that are there as a best-effort tour. The tour's video info then records
 * the seconds kept and the seconds declared, the console shows cutOffRecordingText on the card and in Tour Info, and
 * the owner gets a mail saying what was kept, once the tour is processed.
 */
import { cutOffRecordingText, PRODUCT_NAME } from '@roomwalk/shared';
import { renderMail } from '../mail/templates.js';
import type { ProbeResult } from '../media/probe-video.js';
import type { Services } from '../services/services.js';
import { mailQueue } from './mail-job.js';

/** What a tour's video info adds for a cut-off recording (absent for a whole one). */
export interface CutOff {
  /** Seconds of the recording the tour was made of. */
  keptSeconds: number;
  /** Seconds the file's index declares. */
  declaredSeconds: number;
}

/** Below this many missing seconds the cut is not worth a word (the last frame's length, rounding). */
const MISSING_SECONDS_MIN = 1;

/**
 * The cut when the probe found the file ending before the samples its index names and the tour keeps at least a second
 * less than declared; null for a whole file (a header that merely overstates a whole file is not a cut-off recording).
 */
export function cutOffOf(
  probe: Pick<ProbeResult, 'partial' | 'headerDurationSeconds'>,
  keptSeconds: number,
): CutOff | null {
  const declared = probe.headerDurationSeconds;
  if (!probe.partial || declared === null || !(declared - keptSeconds >= MISSING_SECONDS_MIN)) return null;
  return { keptSeconds: Math.round(keptSeconds * 100) / 100, declaredSeconds: Math.round(declared * 100) / 100 };
}

/** Mails the tour's owner what was kept of a cut-off recording (after the tour is processed). */
export async function mailCutOff(services: Services, tourId: string, cut: CutOff): Promise<void> {
  const row = await services.db
    .selectFrom('tours')
    .innerJoin('users', 'users.id', 'tours.owner_id')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
    .select(['tours.title', 'users.username', 'user_profiles.name'])
    .where('tours.id', '=', tourId)
    .executeTakeFirst();
  if (!row) return;
  const title = row.title?.trim() || 'Your tour';
  await mailQueue.enqueue(
    services,
    renderMail({
      to: row.username,
      subject: `${title} is ready, from part of the recording`,
      greeting: `Hi ${row.name || row.username},`,
      paragraphs: [
        `${title} is processed, but the video file ended early. ${cutOffRecordingText(cut.keptSeconds, cut.declaredSeconds)}`,
        `The tour shows what could be read. To have the whole walk, upload the complete recording again as a new tour (a file copied or uploaded part-way is the usual cause).`,
      ],
      button: { label: `Open ${PRODUCT_NAME}`, url: `${services.config.publicUrl}/` },
    }),
  );
}
