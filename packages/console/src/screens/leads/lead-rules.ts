/** How the Leads screen words a lead: its name, its gate state, the rooms its visitor saw. */
import { formatDuration } from '@roomwalk/shared';

export const leadName = (l: { name: string; surname?: string | null }) => [l.name, l.surname].filter(Boolean).join(' ');

/** The lead's place at the tour's lead gate, in the agent's words ('' without a gate). */
export function gateText(gate: string | null | undefined): string {
  if (gate === 'WAITING') return 'Waiting for your approval';
  if (gate === 'APPROVED') return 'Approved';
  if (gate === 'OPEN') return 'Went on after the form';
  if (gate === 'REVOKED') return 'Pass revoked';
  return '';
}

/** Whether the lead holds a pass the agent may take back (approved, or went on after the form). */
export const holdsPass = (gate: string | null | undefined): boolean => gate === 'APPROVED' || gate === 'OPEN';

/** "Living room 10 s → Bedroom 1 min 5 s" ('' when no room was recorded). */
export function roomPathText(path: ReadonlyArray<{ name: string; seconds: number }> | null | undefined): string {
  return (path ?? []).map((r) => `${r.name} ${formatDuration(r.seconds)}`).join(' → ');
}
