/** The Tour Info dialog's lead gate: the tour's choice read, the owner's change checked, sent only when changed. */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { LEAD_GATE_MODES, type LeadGateMode } from '@roomwalk/shared';
import { TourLeadGateQuery, TourLeadGateSetMutation } from './lead-gate-operations.js';
import { leadGateProblem, type LeadGateChoice } from './lead-gate-field.js';

/** The Tour Info dialog's lead gate: the field's props, whether it can be saved, and the save. */
export function useLeadGate(tourId: string, enabled: boolean) {
  const [q] = useQuery({ query: TourLeadGateQuery, variables: { id: tourId }, pause: !enabled });
  const [, set] = useMutation(TourLeadGateSetMutation);
  const [choice, setChoice] = useState<LeadGateChoice | null>(null);
  const [tried, setTried] = useState(false);
  const now = q.data?.tour?.leadGateSettings;
  const current: LeadGateChoice = choice ?? {
    mode: (now?.mode as LeadGateMode | undefined) ?? LEAD_GATE_MODES.off,
    markerId: now?.markerId ?? '',
    seconds: now?.seconds ? String(now.seconds) : '',
    approval: now?.approval ?? false,
  };
  const problem = choice ? leadGateProblem(choice) : null;
  return {
    ready: !!q.data?.tour,
    field: { value: current, rooms: q.data?.tour?.markers ?? [], error: tried ? problem : null, onChange: setChoice },
    /** False (and the problem shown) when the choice cannot be saved. */
    check: () => {
      setTried(true);
      return !problem;
    },
    /** Saves a changed choice; answers the failure's words, or null. */
    save: async (): Promise<string | null> => {
      if (!choice) return null;
      const r = await set({
        input: {
          id: tourId,
          mode: choice.mode,
          markerId: choice.markerId || null,
          seconds: choice.seconds === '' ? null : Number(choice.seconds),
          approval: choice.approval,
        },
      });
      return r.error ? (r.error.graphQLErrors[0]?.message ?? r.error.message) : null;
    },
  };
}
