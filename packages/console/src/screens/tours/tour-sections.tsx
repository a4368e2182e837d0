/**
 * My Tours' lists: Processing Tours (live percentages; the list is read again when one settles), Failed Tours (their
 * own heading, so the owner sees at once what needs a new upload) and the product's tours with 'Load more tours...'.
 */
import { formatTexts } from '@roomwalk/shared';
import { DataLoadError } from '../../ui/data-load-error.js';
import { TourCard, type TourCardData } from './tour-card.js';
import { tourPhase } from './tour-status.js';
import { TOUR_TEXTS } from './texts.js';

export function TourSections({
  tours,
  hasNextPage,
  loadMore,
  loadingMore,
  moreError,
  onOpen,
  onDelete,
  onSettled,
}: {
  tours: readonly TourCardData[];
  hasNextPage: boolean;
  loadMore: () => Promise<void>;
  loadingMore: boolean;
  moreError: Error | null;
  onOpen: (tour: TourCardData) => void;
  onDelete: (tour: TourCardData) => void;
  onSettled: () => void;
}) {
  const processing = tours.filter((t) => tourPhase(t.status.status) === 'processing');
  const failed = tours.filter((t) => tourPhase(t.status.status) === 'failed');
  const processed = tours.filter((t) => tourPhase(t.status.status) === 'processed');
  return (
    <>
      {processing.length ? (
        <section className="section tours-section" aria-labelledby="processing-tours-title">
          <h2 id="processing-tours-title">{TOUR_TEXTS.processingTours}</h2>
          <div className="tour-grid">
            {processing.map((t) => (
              <TourCard key={t.id} tour={t} onOpen={onOpen} onDelete={onDelete} onSettled={onSettled} />
            ))}
          </div>
        </section>
      ) : null}

      {failed.length ? (
        <section className="section tours-section" aria-labelledby="failed-tours-title">
          <h2 id="failed-tours-title">{TOUR_TEXTS.failedTours}</h2>
          <div className="tour-grid">
            {failed.map((t) => (
              <TourCard key={t.id} tour={t} onOpen={onOpen} onDelete={onDelete} />
            ))}
          </div>
        </section>
      ) : null}

      <section className="section tours-section" aria-labelledby="product-tours-title">
        <h2 id="product-tours-title">{formatTexts.productTours()}</h2>
        {tours.length === 0 ? <p className="muted">{TOUR_TEXTS.noTours}</p> : null}
        <div className="tour-grid">
          {processed.map((t) => (
            <TourCard key={t.id} tour={t} onOpen={onOpen} />
          ))}
          {hasNextPage ? (
            <article className="tour-card tour-card-more">
              <button
                type="button"
                className="tour-card-button"
                onClick={() => void loadMore()}
                disabled={loadingMore}
                aria-busy={loadingMore}
              >
                <span className="tour-card-title">{TOUR_TEXTS.loadMore}</span>
              </button>
            </article>
          ) : null}
        </div>
        {moreError ? <DataLoadError error={moreError} onRetry={() => void loadMore()} /> : null}
      </section>
    </>
  );
}
