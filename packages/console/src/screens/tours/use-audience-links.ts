/**
 * Sharing Options' audience links: the tour's links and rooms (read again after each change), a new link made (the
 * server's refusal on the field it names), a link revoked.
 */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { LEAD_GATE_MODES, endOfLocalDay } from '@roomwalk/shared';
import { describeFailure, fieldErrors } from '../../graphql/errors.js';
import { useSnackbar } from '../../ui/snackbar.js';
import {
  AudienceLinkCreateMutation,
  AudienceLinkRevokeMutation,
  AudienceLinksQuery,
} from './audience-link-operations.js';
import { AUDIENCE_LINK_TEXTS as T } from './audience-link-texts.js';
import { TOUR_GATE, type LeadGateChoice } from './lead-gate-field.js';

/** What is wrong with a new link, per field, in the agent's words. */
export interface AudienceLinkProblems {
  label?: string;
  expiresAt?: string;
  hiddenMarkerIds?: string;
  leadGate?: string;
  form?: string;
}

/** The tour's audience links and its rooms (to name the hidden ones and choose from). */
export function useAudienceLinks(tourId: string) {
  const [result, refetch] = useQuery({
    query: AudienceLinksQuery,
    variables: { tourId },
    requestPolicy: 'cache-and-network',
  });
  const rooms = (result.data?.tour?.markers ?? []).map((m) => ({ id: m.id, name: m.name }));
  return {
    rooms,
    roomName: (id: string) => rooms.find((r) => r.id === id)?.name,
    links: result.data?.audienceLinks ?? [],
    loadError: result.error && !result.data ? describeFailure(result.error) : null,
    fetching: result.fetching,
    reload: () => refetch({ requestPolicy: 'network-only' }),
  };
}

/** Revoke (once confirmed): the notice on success, the failure's words otherwise. */
export function useRevokeAudienceLink(id: string, onRevoked: () => void) {
  const notify = useSnackbar();
  const [revoking, revoke] = useMutation(AudienceLinkRevokeMutation);
  const [error, setError] = useState('');
  return {
    revoking: revoking.fetching,
    error,
    /** True once revoked. */
    revoke: async (): Promise<boolean> => {
      const r = await revoke({ id });
      if (r.error) {
        setError(describeFailure(r.error));
        return false;
      }
      notify('success', T.revoked);
      onRevoked();
      return true;
    },
  };
}

/** The new link's form as sent: the last day (end of it, local), the hidden rooms, the unbranded switch, its gate. */
export interface NewAudienceLink {
  label: string;
  expires: string;
  hidden: string[];
  unbranded: boolean;
  gate: LeadGateChoice;
}

/** "Create link": the server's refusals by field (or for the form), cleared on each try. */
export function useCreateAudienceLink(tourId: string, onDone: () => void) {
  const [server, setServer] = useState<AudienceLinkProblems>({});
  const [state, create] = useMutation(AudienceLinkCreateMutation);
  return {
    server,
    creating: state.fetching,
    clear: () => setServer({}),
    create: async ({ label, expires, hidden, unbranded, gate }: NewAudienceLink) => {
      setServer({});
      const r = await create({
        input: {
          tourId,
          label: label.trim(),
          expiresAt: expires ? endOfLocalDay(expires) : null,
          hiddenMarkerIds: hidden,
          unbranded,
          leadGate:
            gate.mode === TOUR_GATE
              ? null
              : {
                  mode: gate.mode,
                  markerId: gate.mode === LEAD_GATE_MODES.room ? gate.markerId || null : null,
                  seconds: gate.mode === LEAD_GATE_MODES.seconds && gate.seconds !== '' ? Number(gate.seconds) : null,
                  approval: gate.approval,
                },
        },
      });
      if (r.error) {
        const fields = fieldErrors(r.error);
        const leadGate = Object.entries(fields).find(([k]) => k.startsWith('leadGate'))?.[1];
        const known = fields.label || fields.expiresAt || fields.hiddenMarkerIds || leadGate;
        setServer(
          known
            ? { label: fields.label, expiresAt: fields.expiresAt, hiddenMarkerIds: fields.hiddenMarkerIds, leadGate }
            : { form: describeFailure(r.error) },
        );
        return;
      }
      onDone();
    },
  };
}
