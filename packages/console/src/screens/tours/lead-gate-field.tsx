/**
 * The lead gate in Tour Info, beside who sees the tour (docs/access-and-privacy.md): no form (the default), the form
 * before a chosen room, or after a number of seconds; then the visitor goes on at once or waits for the agent's
 * approval. Checked with the shared schema (the server checks again); sent only when changed.
 */
import { useId } from 'react';
import { LEAD_GATE_MODES, leadGateInputSchema, type LeadGateMode } from '@roomwalk/shared';

/** An audience link's choice that keeps the tour's own lead form (the link sets none of its own). */
export const TOUR_GATE = 'TOUR' as const;

export interface LeadGateChoice {
  mode: LeadGateMode | typeof TOUR_GATE;
  markerId: string;
  seconds: string;
  approval: boolean;
}

/** What is wrong with the choice, in the owner's words (null when it can be saved). */
export function leadGateProblem(c: LeadGateChoice): string | null {
  const r = leadGateInputSchema.safeParse({
    mode: c.mode,
    markerId: c.markerId || null,
    seconds: c.seconds === '' ? null : Number(c.seconds),
    approval: c.approval,
  });
  return r.success ? null : (r.error.issues[0]?.message ?? null);
}

export function LeadGateField(props: {
  value: LeadGateChoice;
  rooms: ReadonlyArray<{ id: string; name: string }>;
  error: string | null;
  onChange: (v: LeadGateChoice) => void;
  /** Offers "the tour's lead form" first, with this label (an audience link's form). */
  tourChoice?: string;
}) {
  const id = useId();
  const { value, rooms, error } = props;
  const change = (patch: Partial<LeadGateChoice>) => props.onChange({ ...value, ...patch });
  const modes: Array<{ mode: LeadGateChoice['mode']; label: string }> = [
    ...(props.tourChoice ? [{ mode: TOUR_GATE, label: props.tourChoice }] : []),
    { mode: LEAD_GATE_MODES.off, label: 'No form: visitors see the whole tour' },
    { mode: LEAD_GATE_MODES.room, label: 'Ask for details before a room' },
    { mode: LEAD_GATE_MODES.seconds, label: 'Ask for details after some seconds' },
  ];
  return (
    <fieldset className="privacy lead-gate" data-testid="lead-gate">
      <legend>Lead form</legend>
      {modes.map((m) => (
        <label key={m.mode} className="radio">
          <input
            type="radio"
            name={`${id}-mode`}
            value={m.mode}
            checked={value.mode === m.mode}
            onChange={() => change({ mode: m.mode })}
          />
          <span>{m.label}</span>
        </label>
      ))}
      {value.mode === LEAD_GATE_MODES.room ? (
        <div className="field">
          <label htmlFor={`${id}-room`}>Room</label>
          <select
            id={`${id}-room`}
            value={value.markerId}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : `${id}-room-hint`}
            onChange={(e) => change({ markerId: e.currentTarget.value })}
          >
            <option value="">Choose a room</option>
            {rooms.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
          <p id={`${id}-room-hint`} className="hint">
            Visitors see the rooms before it. The rest of the tour is not sent to them until they are through.
          </p>
        </div>
      ) : null}
      {value.mode === LEAD_GATE_MODES.seconds ? (
        <div className="field">
          <label htmlFor={`${id}-seconds`}>Seconds of watching</label>
          <input
            id={`${id}-seconds`}
            type="number"
            inputMode="numeric"
            min={5}
            max={3600}
            value={value.seconds}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => change({ seconds: e.currentTarget.value })}
          />
        </div>
      ) : null}
      {value.mode !== LEAD_GATE_MODES.off && value.mode !== TOUR_GATE ? (
        <label className="radio">
          <input
            type="checkbox"
            checked={value.approval}
            onChange={(e) => change({ approval: e.currentTarget.checked })}
          />
          <span>
            Wait for my approval
            <span className="hint">
              The visitor waits until you approve (from the notice, the mail or Leads); otherwise they go on at once.
            </span>
          </span>
        </label>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="form-failure" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
