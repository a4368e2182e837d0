/** A tour card: thumbnail, title, description and views; a processing percentage; a failed card. */
import type { MouseEvent } from 'react';
import SlIconButton from '@shoelace-style/shoelace/dist/react/icon-button/index.js';
import SlProgressBar from '@shoelace-style/shoelace/dist/react/progress-bar/index.js';
import { formatTexts } from '@roomwalk/shared';
import { readFragment, type FragmentOf, type ResultOf } from '../../graphql/graphql.js';
import { TourCardFields } from './tour-operations.js';
import { clampPercent, cutOffNote, tourPhase } from './tour-status.js';
import { TOUR_TEXTS } from './texts.js';
import { useTourProgress } from './use-tour-progress.js';

export type TourCardData = ResultOf<typeof TourCardFields>;
export const readTour = (t: FragmentOf<typeof TourCardFields>): TourCardData => readFragment(TourCardFields, t);

export interface TourCardProps {
  tour: TourCardData;
  onOpen: (tour: TourCardData) => void;
  onDelete?: (tour: TourCardData) => void;
  /** Called when live progress says the tour finished (processed or failed). */
  onSettled?: () => void;
}

export function TourCard({ tour, onOpen, onDelete, onSettled }: TourCardProps) {
  const phase = tourPhase(tour.status.status);
  const live = useTourProgress(tour.id, tour.progress, phase === 'processing', onSettled);
  const title = tour.title?.trim() || TOUR_TEXTS.titlePlaceholder;
  // A tour made from a cut-off recording says what was kept (the whole sentence: it tells the owner what happened).
  const cut = cutOffNote(tour.videoInfo);

  if (phase === 'failed') {
    return (
      <article
        className="tour-card tour-card-failed"
        aria-label={`${title}: ${TOUR_TEXTS.processingFailed}`}
        data-tour-id={tour.id}
      >
        <div className="tour-thumb tour-thumb-empty" aria-hidden="true" />
        <div className="tour-card-body">
          <h3 className="tour-card-title">{TOUR_TEXTS.processingFailed}</h3>
          <p className="tour-card-text">{title}</p>
          {/* Why: the server's reason in the owner's words, whole (not clamped like the description): it says what to do. */}
          {tour.failureReason ? (
            <p className="tour-card-reason" data-testid="tour-failure-reason">
              {tour.failureReason}
            </p>
          ) : null}
        </div>
        <SlIconButton
          name="trash"
          label={`${TOUR_TEXTS.deleteTour}: ${title}`}
          className="tour-card-delete"
          onClick={(e: MouseEvent) => {
            e.stopPropagation();
            onDelete?.(tour);
          }}
        />
      </article>
    );
  }

  if (phase === 'processing') {
    const pct = clampPercent(live.progress);
    return (
      <article
        className="tour-card tour-card-processing"
        aria-label={`${title}: ${TOUR_TEXTS.processing} ${pct}%`}
        data-tour-id={tour.id}
      >
        <div className="tour-thumb tour-thumb-empty" aria-hidden="true">
          <span className="tour-percent" data-testid="tour-percent">
            {pct}%
          </span>
        </div>
        <div className="tour-card-body">
          <h3 className="tour-card-title">{title}</h3>
          <SlProgressBar value={pct} label={`${TOUR_TEXTS.processing} ${title}`} />
        </div>
      </article>
    );
  }

  return (
    <article className="tour-card" data-tour-id={tour.id}>
      <button type="button" className="tour-card-button" onClick={() => onOpen(tour)} aria-haspopup="dialog">
        {tour.thumbnailURL ? (
          <img className="tour-thumb" src={tour.thumbnailURL} alt="" loading="lazy" />
        ) : (
          <div className="tour-thumb tour-thumb-empty" aria-hidden="true" />
        )}
        <span className="tour-card-body">
          <span className="tour-card-title">{title}</span>
          {tour.description ? <span className="tour-card-text">{tour.description}</span> : null}
          <span className="tour-card-views">{formatTexts.views(tour.views)}</span>
          {cut ? (
            <span className="tour-card-reason" data-testid="tour-cut-off">
              {cut}
            </span>
          ) : null}
        </span>
      </button>
    </article>
  );
}
