/**
 * The Sharing dialog's form for a new audience link: a name, an optional last day (the link works until the end of it,
 * in the agent's time zone), the rooms it does not show, the unbranded switch, and its lead form (the tour's, none,
 * before one of the rooms it shows, or after some seconds; Tour Info's field with the tour's choice added). Checked
 * with the shared schema (the server checks again); the server's refusal is shown beside the field it names.
 */
import { useId, useState, type FormEvent } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { LEAD_GATE_MODES, LEAD_GATE_TEXTS, VALIDATION, audienceLinkInputSchema, endOfLocalDay } from '@roomwalk/shared';
import { FormField } from '../../ui/form-field.js';
import { AUDIENCE_LINK_TEXTS as T } from './audience-link-texts.js';
import { LeadGateField, TOUR_GATE, leadGateProblem, type LeadGateChoice } from './lead-gate-field.js';
import { useCreateAudienceLink, type AudienceLinkProblems as Problems } from './use-audience-links.js';

export interface RoomChoice {
  id: string;
  name: string;
}

/** Today as the date input's value (YYYY-MM-DD, local). */
const today = (): string => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

const TOURS_GATE: LeadGateChoice = { mode: TOUR_GATE, markerId: '', seconds: '', approval: false };

/** What is wrong with the form, in the agent's words (empty: it can be sent). */
export function audienceLinkProblems(
  v: { label: string; expires: string; hidden: readonly string[]; gate?: LeadGateChoice },
  rooms: number,
): Problems {
  const out: Problems = {};
  const parsed = audienceLinkInputSchema.safeParse({ label: v.label, hiddenMarkerIds: [...v.hidden] });
  if (!parsed.success) out.label = parsed.error.issues.find((i) => i.path[0] === 'label')?.message;
  if (v.expires && (!endOfLocalDay(v.expires) || v.expires < today()))
    out.expiresAt = VALIDATION.audienceLinkExpiryPast;
  if (v.hidden.length > 0 && v.hidden.length >= rooms) out.hiddenMarkerIds = VALIDATION.audienceLinkAllHidden;
  const gate = v.gate ?? TOURS_GATE;
  if (gate.mode !== TOUR_GATE) {
    out.leadGate = leadGateProblem(gate) ?? undefined;
    // A form before a room the link does not show could never be reached (the server refuses it too).
    if (gate.mode === LEAD_GATE_MODES.room && v.hidden.includes(gate.markerId))
      out.leadGate = LEAD_GATE_TEXTS.roomHiddenByLink;
  }
  return Object.fromEntries(Object.entries(out).filter(([, m]) => m)) as Problems;
}

export function AudienceLinkForm({
  tourId,
  rooms,
  onDone,
  onCancel,
}: {
  tourId: string;
  rooms: readonly RoomChoice[];
  onDone: () => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [label, setLabel] = useState('');
  const [expires, setExpires] = useState('');
  const [hidden, setHidden] = useState<string[]>([]);
  const [unbranded, setUnbranded] = useState(false);
  const [gate, setGate] = useState<LeadGateChoice>(TOURS_GATE);
  const [submitted, setSubmitted] = useState(false);
  const { server, creating, clear, create } = useCreateAudienceLink(tourId, onDone);
  const local = audienceLinkProblems({ label, expires, hidden, gate }, rooms.length);
  const problems: Problems = submitted ? { ...server, ...local } : server;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (Object.keys(local).length) return clear();
    await create({ label, expires, hidden, unbranded, gate });
  };

  const toggle = (room: string, on: boolean) => setHidden((h) => (on ? [...h, room] : h.filter((x) => x !== room)));
  return (
    <form className="stack audience-form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`}>{T.newLink}</h4>
      <FormField
        autoFocus
        label={T.label}
        value={label}
        maxLength={80}
        required
        autoComplete="off"
        hint={T.labelHint}
        error={problems.label}
        onChange={(e) => setLabel(e.currentTarget.value)}
      />
      <FormField
        label={T.expires}
        type="date"
        min={today()}
        value={expires}
        hint={T.expiresHint}
        error={problems.expiresAt}
        onChange={(e) => setExpires(e.currentTarget.value)}
      />
      <fieldset
        className="audience-rooms"
        aria-describedby={problems.hiddenMarkerIds ? `${id}-rooms-error` : `${id}-rooms-hint`}
      >
        <legend>{T.hiddenRooms}</legend>
        <p id={`${id}-rooms-hint`} className="field-hint">
          {rooms.length ? T.hiddenRoomsHint : T.noRooms}
        </p>
        {rooms.map((r) => (
          <label key={r.id} className="check">
            <input
              type="checkbox"
              checked={hidden.includes(r.id)}
              onChange={(e) => toggle(r.id, e.currentTarget.checked)}
            />
            <span>{r.name}</span>
          </label>
        ))}
        {problems.hiddenMarkerIds ? (
          <p id={`${id}-rooms-error`} className="form-failure" role="alert">
            {problems.hiddenMarkerIds}
          </p>
        ) : null}
      </fieldset>
      <label className="check">
        <input type="checkbox" checked={unbranded} onChange={(e) => setUnbranded(e.currentTarget.checked)} />
        <span>{T.unbranded}</span>
      </label>
      <LeadGateField
        value={gate}
        rooms={rooms.filter((r) => !hidden.includes(r.id))}
        error={problems.leadGate ?? null}
        onChange={setGate}
        tourChoice={T.tourLeadForm}
      />
      {problems.form ? (
        <p className="form-failure" role="alert">
          {problems.form}
        </p>
      ) : null}
      <div className="row">
        <SlButton type="submit" variant="primary" loading={creating}>
          {T.create}
        </SlButton>
        <SlButton onClick={onCancel}>{T.cancel}</SlButton>
      </div>
    </form>
  );
}
