/** The seller digest: weekly or monthly, on a day the owner picks, to the addresses the agent enters. */
import { useEffect, useId, useState, type FormEvent } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { WEEKDAYS, browserTimeZone, digestWhen, humanDate, parseRecipients, zoneName } from './analytics-rules.js';
import { useSellerDigest } from './use-seller-report.js';

type Frequency = 'WEEKLY' | 'MONTHLY';
const MONTH_DAYS = Array.from({ length: 28 }, (_v, i) => i + 1);
export interface Digest {
  frequency: Frequency;
  day: number;
  recipients: readonly string[];
  timeZone: string;
  nextSendAt: string;
  lastSentAt?: string | null;
  lastRun?: {
    status: 'QUEUED' | 'RUNNING' | 'DONE' | 'FAILED';
    progress: number;
    progressText: string;
    error?: string | null;
  } | null;
}

/** The newest sending in words: being sent (with its step), or why it failed; nothing once it went out. */
function lastRunText(run: Digest['lastRun']): string | null {
  if (!run || run.status === 'DONE') return null;
  if (run.status === 'FAILED') return `The last digest was not sent: ${run.error ?? 'it failed'}`;
  return `Sending now: ${run.progressText} (${run.progress} %).`;
}

export function DigestForm({
  tourId,
  digest,
  onChanged,
}: {
  tourId: string;
  digest: Digest | null;
  onChanged: () => void;
}) {
  const { busy, save, stop } = useSellerDigest(tourId, onChanged);
  const id = useId();
  // The digest goes out at 07:00 where the agent is; saving from another zone moves it there.
  const timeZone = browserTimeZone();
  const [frequency, setFrequency] = useState<Frequency>(digest?.frequency ?? 'WEEKLY');
  const [day, setDay] = useState<number>(digest?.day ?? 1);
  const [recipients, setRecipients] = useState(digest?.recipients.join(', ') ?? '');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!digest) return;
    setFrequency(digest.frequency);
    setDay(digest.day);
    setRecipients(digest.recipients.join(', '));
  }, [digest]);

  const changeFrequency = (f: Frequency) => {
    setFrequency(f);
    if (f === 'WEEKLY' && day > 7) setDay(1);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseRecipients(recipients);
    if ('error' in parsed) {
      setError(parsed.error);
      document.getElementById(`${id}-recipients`)?.focus();
      return;
    }
    setError(null);
    setError(await save({ frequency, day, recipients: parsed.recipients, timeZone }));
  };

  return (
    <section className="card seller-panel" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>E-mail digest</h3>
      <p className="field-hint" data-testid="seller-digest-status">
        {digest
          ? `${digestWhen(digest.frequency, digest.day, digest.timeZone)} to ${digest.recipients.length} address${digest.recipients.length === 1 ? '' : 'es'}. Next: ${humanDate(digest.nextSendAt)}.${digest.lastSentAt ? ` Last sent ${humanDate(digest.lastSentAt)}.` : ''}`
          : 'Send the seller the figures as a PDF, every week or every month.'}
      </p>
      {lastRunText(digest?.lastRun) ? (
        <p
          className={digest?.lastRun?.status === 'FAILED' ? 'field-error' : 'field-hint'}
          data-testid="seller-digest-run"
        >
          {lastRunText(digest?.lastRun)}
        </p>
      ) : null}
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <fieldset className="digest-frequency">
          <legend>How often</legend>
          {(['WEEKLY', 'MONTHLY'] as const).map((f) => (
            <label key={f} className="checkbox">
              <input
                type="radio"
                name={`${id}-frequency`}
                value={f}
                checked={frequency === f}
                onChange={() => changeFrequency(f)}
              />
              {f === 'WEEKLY' ? 'Weekly' : 'Monthly'}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-day`}>{frequency === 'WEEKLY' ? 'Day of the week' : 'Day of the month'}</label>
          <select id={`${id}-day`} value={day} onChange={(e) => setDay(Number(e.target.value))}>
            {frequency === 'WEEKLY'
              ? WEEKDAYS.map((w, i) => (
                  <option key={w} value={i + 1}>
                    {w}
                  </option>
                ))
              : MONTH_DAYS.map((d) => (
                  <option key={d} value={d}>
                    {d}
                  </option>
                ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-recipients`}>Recipients</label>
          <textarea
            id={`${id}-recipients`}
            rows={2}
            value={recipients}
            onChange={(e) => setRecipients(e.target.value)}
            autoComplete="email"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : `${id}-hint`}
          />
          {error ? (
            <div id={`${id}-error`} className="field-error" role="alert">
              {error}
            </div>
          ) : (
            <div id={`${id}-hint`} className="field-hint">
              E-mail addresses separated by commas, up to 10. Sent at 07:00 {zoneName(timeZone)}.
            </div>
          )}
        </div>
        <div className="seller-row">
          <SlButton type="submit" variant="primary" loading={busy}>
            <SlIcon slot="prefix" name="envelope" />
            {digest ? 'Save digest' : 'Start digest'}
          </SlButton>
          {digest ? (
            <SlButton variant="danger" outline onClick={() => void stop()}>
              Stop digest
            </SlButton>
          ) : null}
        </div>
      </form>
    </section>
  );
}
