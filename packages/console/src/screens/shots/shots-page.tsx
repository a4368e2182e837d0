/**
 * /tour/{tourId}/shots, Professional Photos: titled with the tour; processed tours only; shots grouped
 * by room type with status, score, clip index and position; Enhance / re-enhance / Stage / Download by the rules; a
 * full-screen viewer with a before/after slider and fill or fit. While generation runs a progress bar shows from the
 * moment of the call (useShots keeps it fresh). Without an AI image service on the server Stage is not offered, and
 * the page says why.
 */
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { ERROR_CODES, ERROR_TEXTS, TOUR_STATUS } from '@roomwalk/shared';
import { failureCode } from '../../graphql/errors.js';
import { DataLoadError } from '../../ui/data-load-error.js';
import { Loading, Page } from '../../ui/page.js';
import { TOUR_TEXTS } from '../tours/texts.js';
import { ShotCard, type Shot } from './shot-card.js';
import { groupByRoom } from './shot-rules.js';
import { ShotViewer } from './shot-viewer.js';
import { useShots } from './use-shots.js';
import '../tours/tours.css';

const GONE: ReadonlySet<string> = new Set([
  ERROR_CODES.NOT_FOUND,
  ERROR_CODES.INVALID_TOUR_ID,
  ERROR_CODES.TOUR_REMOVED,
]);

export default function ShotsPage() {
  const { tourId = '' } = useParams();
  const shots = useShots(tourId);
  const [viewer, setViewer] = useState<Shot | null>(null);
  const { data, error, generating } = shots;

  if (error && !data && GONE.has(failureCode(error) ?? '')) {
    return (
      <Page title={ERROR_TEXTS.tourNotFound} back="/">
        <p>
          {ERROR_TEXTS.tourNotFound}: <code>{tourId}</code>
        </p>
        <Link to="/">{TOUR_TEXTS.backToTours}</Link>
      </Page>
    );
  }
  if (!data)
    return (
      <Page title={TOUR_TEXTS.professionalPhotos} back="/">
        {error ? <DataLoadError error={error} onRetry={shots.reload} /> : <Loading />}
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
          <SlButton
            variant="primary"
            loading={shots.busy === 'generate'}
            disabled={generating}
            onClick={() => void shots.generate()}
          >
            {TOUR_TEXTS.generatePhotos}
          </SlButton>
          {shots.failure ? (
            <p className="form-failure" role="alert">
              {shots.failure}
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
            ) : shots.processingShots > 0 ? (
              <p>{TOUR_TEXTS.photosProcessing(shots.processingShots)}</p>
            ) : null}
          </div>
          {!tour.stagingAvailable ? (
            <p className="muted" role="note">
              {TOUR_TEXTS.stagingUnavailable}
            </p>
          ) : null}
          {shots.shots.length === 0 && !generating ? <p className="muted">{TOUR_TEXTS.noShots}</p> : null}
          {groupByRoom(shots.shots, TOUR_TEXTS.otherRooms).map((g) => (
            <section key={g.room} className="section" aria-labelledby={`room-${g.room}`}>
              <h2 id={`room-${g.room}`}>{g.room}</h2>
              <div className="tour-grid">
                {g.shots.map((s) => (
                  <ShotCard
                    key={s.id}
                    shot={s}
                    room={g.room}
                    busy={shots.busy}
                    stagingAvailable={tour.stagingAvailable}
                    onOpen={() => setViewer(s)}
                    onEnhance={() => shots.enhance(s.id)}
                    onStage={() => shots.stage(s.id)}
                  />
                ))}
              </div>
            </section>
          ))}
        </>
      )}
      {viewer ? <ShotViewer shot={viewer} onClose={() => setViewer(null)} /> : null}
    </Page>
  );
}
