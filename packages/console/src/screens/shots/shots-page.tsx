/**
 * /tour/{tourId}/shots, Professional Photos (tours §2, §4): titled with the tour; processed tours only; shots grouped
 * by room type with status, score, clip index and position; Enhance / re-enhance / Stage / Download by the rules; a
 * full-screen viewer with a before/after slider and fill or fit. Refreshes 1 s and 2 s after a call, and every 5 s while
 * a shot is processing or the tour's generation is queued or running (Tour.shotsGenerating), with a progress bar from
 * the moment of the call. Without an AI image service on the server Stage is not offered, and the page says why.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useMutation, useQuery, type CombinedError } from 'urql';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlTag from '@shoelace-style/shoelace/dist/react/tag/index.js';
import { ERROR_CODES, ERROR_TEXTS, SHOT_STATUS, TIMINGS_MS, TOUR_STATUS } from '@roomwalk/shared';
import { readFragment, type ResultOf } from '../../graphql/graphql.js';
import { describeFailure, failureCode } from '../../graphql/errors.js';
import { DataLoadError } from '../../ui/data-load-error.js';
import { Dialog } from '../../ui/dialog.js';
import { Loading, Page } from '../../ui/page.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { GenerateStagedShotMutation, GenerateTourShotsMutation, RegenerateShotMutation, ShotFields, TourShotsQuery } from './shot-operations.js';
import { TOUR_TEXTS } from '../tours/texts.js';
import { anyProcessing, groupByRoom, shotActions } from './shot-rules.js';
import '../tours/tours.css';

type Shot = ResultOf<typeof ShotFields>;
const CHIP = { COMPLETED: 'success', PROCESSING: 'primary', FAILED: 'danger' } as const;

export default function ShotsPage() {
  const { tourId = '' } = useParams();
  const [{ data, error, fetching }, refetch] = useQuery({ query: TourShotsQuery, variables: { tourID: tourId }, requestPolicy: 'cache-and-network' });
  const [, generate] = useMutation(GenerateTourShotsMutation);
  const [, enhance] = useMutation(RegenerateShotMutation);
  const [, stage] = useMutation(GenerateStagedShotMutation);
  const notify = useSnackbar();
  const [failure, setFailure] = useState<string | null>(null);
  const [viewer, setViewer] = useState<Shot | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const reload = useCallback(() => refetch({ requestPolicy: 'network-only' }), [refetch]);
  // A generation call counts as running from the moment it is made until data fetched after its answer says otherwise.
  const [requested, setRequested] = useState(false);
  const latestData = useRef(data);
  latestData.current = data;
  const dataAtAnswer = useRef<typeof data | null>(null);
  useEffect(() => {
    if (requested && dataAtAnswer.current !== null && data !== dataAtAnswer.current) {
      dataAtAnswer.current = null;
      setRequested(false);
    }
  }, [data, requested]);

  const shots = (data?.tour.shots ?? []).map((s) => readFragment(ShotFields, s));
  const generating = requested || !!data?.tour.shotsGenerating;
  const processingShots = shots.filter((s) => s.shotStatus === SHOT_STATUS.PROCESSING).length;
  const processing = generating || anyProcessing(shots);
  useEffect(() => {
    if (!processing) return;
    const t = setInterval(reload, TIMINGS_MS.shotsRefreshWhileProcessing);
    return () => clearInterval(t);
  }, [processing, reload]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const afterCall = (err: CombinedError | undefined) => {
    if (err) {
      const m = describeFailure(err);
      setFailure(m);
      notify('error', m);
    }
    for (const ms of TIMINGS_MS.shotsRefreshAfterCall) timers.current.push(setTimeout(reload, ms));
  };
  const call = async (key: string, fn: () => Promise<{ error?: CombinedError }>) => {
    setFailure(null);
    setBusy(key);
    const r = await fn();
    setBusy(null);
    afterCall(r.error);
    return r;
  };
  const onGenerate = async (id: string) => {
    setRequested(true);
    const r = await call('generate', () => generate({ tourId: id }));
    if (r.error) setRequested(false);
    else dataAtAnswer.current = latestData.current ?? null;
  };

  const code = failureCode(error);
  if (error && !data && (code === ERROR_CODES.NOT_FOUND || code === ERROR_CODES.INVALID_TOUR_ID || code === ERROR_CODES.TOUR_REMOVED)) {
    return (
      <Page title={ERROR_TEXTS.tourNotFound} back="/">
        <p>
          {ERROR_TEXTS.tourNotFound}: <code>{tourId}</code>
        </p>
        <Link to="/">{TOUR_TEXTS.backToTours}</Link>
      </Page>
    );
  }
  if (error && !data)
    return (
      <Page title={TOUR_TEXTS.professionalPhotos} back="/">
        <DataLoadError error={error} onRetry={reload} />
      </Page>
    );
  if (!data || (fetching && !data))
    return (
      <Page title={TOUR_TEXTS.professionalPhotos} back="/">
        <Loading />
      </Page>
    );

  const tour = data.tour;
  const ready = tour.status.status === TOUR_STATUS.PROCESSED;
  return (
    <Page title={tour.title?.trim() || TOUR_TEXTS.titlePlaceholder} back="/" className="shots-page">
      <p>
        <Link to="/">{TOUR_TEXTS.backToTours}</Link>
      </p>
      {!ready ? (
        <p role="status">{ERROR_TEXTS.shotsNotReady}</p>
      ) : (
        <>
          <SlButton variant="primary" loading={busy === 'generate'} disabled={generating} onClick={() => void onGenerate(tour.id)}>
            {TOUR_TEXTS.generatePhotos}
          </SlButton>
          {failure ? (
            <p className="form-failure" role="alert">
              {failure}
            </p>
          ) : null}
          <div role="status" className="shots-progress">
            {generating ? (
              <>
                <p>
                  <strong>{TOUR_TEXTS.generatingPhotos}…</strong> {TOUR_TEXTS.generatingPhotosHint}
                </p>
                <progress aria-label={TOUR_TEXTS.generatingPhotos} />
              </>
            ) : processingShots > 0 ? (
              <p>{TOUR_TEXTS.photosProcessing(processingShots)}</p>
            ) : null}
          </div>
          {!tour.stagingAvailable ? (
            <p className="muted" role="note">
              {TOUR_TEXTS.stagingUnavailable}
            </p>
          ) : null}
          {shots.length === 0 && !generating ? <p className="muted">{TOUR_TEXTS.noShots}</p> : null}
          {groupByRoom(shots, TOUR_TEXTS.otherRooms).map((g) => (
            <section key={g.room} className="section" aria-labelledby={`room-${g.room}`}>
              <h2 id={`room-${g.room}`}>{g.room}</h2>
              <div className="tour-grid">
                {g.shots.map((s) => {
                  const a = shotActions(s);
                  const img = s.stagedImageURI ?? s.enhancedImageURI ?? s.originalImageURI;
                  return (
                    <article key={s.id} className="shot-card card" data-status={s.shotStatus}>
                      <button type="button" className="shot-open" onClick={() => setViewer(s)} aria-label={`Open ${g.room} photo`} disabled={!img}>
                        {img ? <img src={img} alt="" className="tour-thumb" loading="lazy" /> : <div className="tour-thumb tour-thumb-empty" />}
                      </button>
                      <div className="row">
                        <SlTag size="small" variant={CHIP[s.shotStatus as keyof typeof CHIP] ?? 'neutral'}>
                          {s.shotStatus}
                        </SlTag>
                        {s.frameScore != null ? <span>Score {s.frameScore.toFixed(2)}</span> : null}
                      </div>
                      <p className="muted">
                        Clip {s.sourceClipIndex ?? '-'} · Position {s.sourceFramePosition ?? '-'}
                      </p>
                      {s.shotStatus === SHOT_STATUS.FAILED && s.errorMessage ? <p className="form-failure">{s.errorMessage}</p> : null}
                      <div className="row">
                        {a.enhance || a.reEnhance ? (
                          <SlButton size="small" loading={busy === `e${s.id}`} onClick={() => void call(`e${s.id}`, () => enhance({ shotId: s.id }))}>
                            {a.enhance ? TOUR_TEXTS.enhance : TOUR_TEXTS.reEnhance}
                          </SlButton>
                        ) : null}
                        {a.stage && tour.stagingAvailable ? (
                          <SlButton size="small" loading={busy === `s${s.id}`} onClick={() => void call(`s${s.id}`, () => stage({ shotId: s.id }))}>
                            {TOUR_TEXTS.stage}
                          </SlButton>
                        ) : null}
                        <Downloads shot={s} />
                      </div>
                    </article>
                  );
                })}
              </div>
            </section>
          ))}
        </>
      )}
      {viewer ? <ShotViewer shot={viewer} onClose={() => setViewer(null)} /> : null}
    </Page>
  );
}

function Downloads({ shot }: { shot: Shot }) {
  const links = [
    [TOUR_TEXTS.original, shot.originalImageURI],
    [TOUR_TEXTS.enhanced, shot.enhancedImageURI],
    [TOUR_TEXTS.staged, shot.stagedImageURI],
  ] as const;
  return (
    <>
      {links.map(([label, uri]) =>
        uri ? (
          <a key={label} className="sl-like-button" href={uri} download>
            {TOUR_TEXTS.download} {label.toLowerCase()}
          </a>
        ) : null,
      )}
    </>
  );
}

/** Full-screen viewer: before (original) and after (staged or enhanced) with a slider; fill or fit. */
function ShotViewer({ shot, onClose }: { shot: Shot; onClose: () => void }) {
  const [split, setSplit] = useState(50);
  const [fill, setFill] = useState(false);
  const before = shot.originalImageURI;
  const after = shot.stagedImageURI ?? shot.enhancedImageURI;
  const fit = fill ? 'cover' : 'contain';
  return (
    <Dialog open label={shot.roomType ?? TOUR_TEXTS.professionalPhotos} onClose={onClose} fullscreen footer={<SlButton onClick={onClose}>{TOUR_TEXTS.close}</SlButton>}>
      <div className="shot-viewer">
        {before ? <img src={before} alt={TOUR_TEXTS.before} style={{ objectFit: fit }} /> : null}
        {after ? <img src={after} alt={TOUR_TEXTS.after} style={{ objectFit: fit, clipPath: `inset(0 0 0 ${split}%)` }} /> : null}
      </div>
      <div className="row">
        {after && before ? (
          <label>
            {TOUR_TEXTS.before} / {TOUR_TEXTS.after}
            <input type="range" min={0} max={100} value={split} onChange={(e) => setSplit(Number(e.target.value))} />
          </label>
        ) : null}
        <SlButton size="small" onClick={() => setFill((f) => !f)} aria-pressed={fill}>
          {fill ? TOUR_TEXTS.fit : TOUR_TEXTS.fill}
        </SlButton>
        <Downloads shot={shot} />
      </div>
    </Dialog>
  );
}
