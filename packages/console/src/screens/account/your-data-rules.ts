/** Your data's pure rules: which state the export is in, and the words around it and the account deletion. */

export interface ExportState {
  status: 'QUEUED' | 'RUNNING' | 'DONE' | 'FAILED';
  progress: number;
  progressText: string;
  error: string | null;
  downloadURL: string | null;
  expiresAt: string | null;
}

export type ExportView =
  | { kind: 'none' }
  | { kind: 'running'; percent: number; text: string }
  | { kind: 'ready'; url: string; until: string }
  | { kind: 'expired' }
  | { kind: 'failed'; error: string };

export const YOUR_DATA_TEXTS = {
  exportIntro:
    'Download everything Roomwalk holds about you: your profile, your tours with their rooms and links to their pictures and clips, the leads you received and your activity, as a ZIP file described by its manifest.json. We also mail you the link.',
  exportButton: 'Export my data',
  exportAgain: 'Export again',
  exportFailed: 'Your export could not be made. Try again in a moment.',
  exportExpired: 'Your last export’s link has expired. Export again for a new one.',
  deleteIntro:
    'Delete your account and your profile. When nobody else is left in your company, the company, its tours, pictures, clips, leads and analytics go too.',
  deleteButton: 'Delete account…',
  dialogTitle: 'Delete your account',
  passwordLabel: 'Your password',
  confirm: 'Delete my account',
  confirmByMail: 'Email me a confirmation link',
  mailed: 'Check your mail: the link we sent confirms the deletion. It works for 24 hours.',
} as const;

/** The polling rule: read the export again while the job has not finished it. */
export const exportRunning = (e: Pick<ExportState, 'status'> | null | undefined): boolean =>
  e?.status === 'QUEUED' || e?.status === 'RUNNING';

export function exportView(e: ExportState | null | undefined): ExportView {
  if (!e) return { kind: 'none' };
  if (exportRunning(e))
    return { kind: 'running', percent: Math.max(0, Math.min(100, e.progress)), text: e.progressText };
  if (e.status === 'FAILED') return { kind: 'failed', error: e.error ?? YOUR_DATA_TEXTS.exportFailed };
  if (e.downloadURL && e.expiresAt) return { kind: 'ready', url: e.downloadURL, until: longDate(e.expiresAt, true) };
  return { kind: 'expired' };
}

/** "3 December 2026" (and the time, for a link's expiry), in the reader's time zone. */
function longDate(iso: string, withTime = false): string {
  const d = new Date(iso);
  const date = d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
  return withTime ? `${date}, ${d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}` : date;
}

/** The card's trace of a deletion that signing in cancelled. */
export const deletionCancelledText = (at: string) => `Deletion cancelled on ${longDate(at)} when you signed in.`;

/** What the dialog says once the deletion is scheduled; the user is signed out when they close it. */
export const scheduledText = (deleteAfter: string) =>
  `Your account will be deleted on ${longDate(deleteAfter)}. We mailed you what goes. Changed your mind? Sign in before then and the deletion is cancelled.`;

/** The note under the consequences: the grace period and how to cancel. */
export const graceText = (days: number) =>
  `You will be signed out now. For ${days} days nothing is deleted: sign in during that time to cancel.`;
