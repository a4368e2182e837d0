/**
 * Home, My Tours: alerts, Processing Tours with live percentages, Roomwalk Tours with 'Load more tours...',
 * Team Tours, the Add button with its quota gate, and the floating AI Edit button when the address asks for it.
 */
import { lazy, Suspense, useCallback, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { ERROR_TEXTS, canUpload, formatTexts } from '@roomwalk/shared';
import { LicenseFields } from '../account/account-operations.js';
import { readFragment } from '../../graphql/graphql.js';
import { AccountAlerts } from '../account/account-alerts.js';
import { DataLoadError } from '../../ui/data-load-error.js';
import { Dialog } from '../../ui/dialog.js';
import { Loading, Page } from '../../ui/page.js';
import { TourCard, type TourCardData } from './tour-card.js';
import { TourActionsDialog, type TourAction } from './tour-actions-dialog.js';
import { tourPhase } from './tour-status.js';
import { TOUR_TEXTS } from './texts.js';
import { useTourPages } from './use-tour-pages.js';
import { showAiEdit } from '../player/player-flags.js';
import { TeamTours } from './team-tours.js';
import './tours.css';

const TourInfoDialog = lazy(() => import('./tour-info-dialog.js').then((m) => ({ default: m.TourInfoDialog })));
const SharingDialog = lazy(() => import('./sharing-dialog.js').then((m) => ({ default: m.SharingDialog })));
const ReelsDialog = lazy(() => import('./reels-dialog.js').then((m) => ({ default: m.ReelsDialog })));
const DeleteTourDialog = lazy(() => import('./delete-tour-dialog.js').then((m) => ({ default: m.DeleteTourDialog })));
const AiEditDialog = lazy(() => import('./ai-edit-dialog.js'));

type Open = { kind: 'actions' | TourAction; tour: TourCardData; team?: boolean } | null;

export default function HomePage() {
  const { home, tours, hasNextPage, loadMore, loadingMore, moreError, refresh } = useTourPages();
  const navigate = useNavigate();
  const location = useLocation();
  const [noUploads, setNoUploads] = useState(false);
  const [open, setOpen] = useState<Open>(null);
  const [aiEdit, setAiEdit] = useState(false);
  const onSettled = useCallback(() => void refresh(), [refresh]);
  const { data, error } = home;

  const license = data?.me.user.company?.license ? readFragment(LicenseFields, data.me.user.company.license) : null;
  const actions = (
    <>
      <SlButton
        variant="primary"
        onClick={() => (canUpload(license) ? navigate('/upload') : setNoUploads(true))}
        disabled={!data}
      >
        <SlIcon slot="prefix" name="plus-lg" />
        {TOUR_TEXTS.add}
      </SlButton>
      <SlButton onClick={() => navigate('/leads')}>
        <SlIcon slot="prefix" name="envelope" />
        Leads
      </SlButton>
      <SlButton onClick={() => navigate('/account')}>
        <SlIcon slot="prefix" name="person-circle" />
        Account
      </SlButton>
    </>
  );

  if (error && !data) {
    return (
      <Page title={TOUR_TEXTS.myTours} actions={actions}>
        <DataLoadError error={error} onRetry={() => void refresh()} />
      </Page>
    );
  }
  if (!data) {
    return (
      <Page title={TOUR_TEXTS.myTours} actions={actions}>
        <Loading />
      </Page>
    );
  }

  const user = data.me.user;
  const processing = tours.filter((t) => tourPhase(t.status.status) === 'processing');
  // Failed tours are not being processed: their own heading, so the owner sees at once what needs a new upload.
  const failed = tours.filter((t) => tourPhase(t.status.status) === 'failed');
  const processed = tours.filter((t) => tourPhase(t.status.status) === 'processed');
  const openCard = (tour: TourCardData, team = false) => setOpen({ kind: 'actions', tour, team });
  const close = () => setOpen(null);
  const closeAndRefresh = () => {
    setOpen(null);
    void refresh();
  };

  return (
    <Page title={TOUR_TEXTS.myTours} actions={actions} className="tours-home">
      <AccountAlerts email={user.profile?.email ?? user.username} activated={user.activated} license={license} />

      {processing.length ? (
        <section className="section tours-section" aria-labelledby="processing-tours-title">
          <h2 id="processing-tours-title">{TOUR_TEXTS.processingTours}</h2>
          <div className="tour-grid">
            {processing.map((t) => (
              <TourCard
                key={t.id}
                tour={t}
                onOpen={openCard}
                onDelete={(tour) => setOpen({ kind: 'delete', tour })}
                onSettled={onSettled}
              />
            ))}
          </div>
        </section>
      ) : null}

      {failed.length ? (
        <section className="section tours-section" aria-labelledby="failed-tours-title">
          <h2 id="failed-tours-title">{TOUR_TEXTS.failedTours}</h2>
          <div className="tour-grid">
            {failed.map((t) => (
              <TourCard key={t.id} tour={t} onOpen={openCard} onDelete={(tour) => setOpen({ kind: 'delete', tour })} />
            ))}
          </div>
        </section>
      ) : null}

      <section className="section tours-section" aria-labelledby="product-tours-title">
        <h2 id="product-tours-title">{formatTexts.productTours()}</h2>
        {tours.length === 0 ? <p className="muted">{TOUR_TEXTS.noTours}</p> : null}
        <div className="tour-grid">
          {processed.map((t) => (
            <TourCard key={t.id} tour={t} onOpen={openCard} />
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

      {user.isAdmin ? <TeamTours onOpen={(t) => openCard(t, true)} /> : null}

      {showAiEdit(location.search) ? (
        <SlButton className="ai-edit-button" variant="primary" pill onClick={() => setAiEdit(true)}>
          <SlIcon slot="prefix" name="magic" />
          {TOUR_TEXTS.aiEdit}
        </SlButton>
      ) : null}

      <Dialog
        open={noUploads}
        label={ERROR_TEXTS.noMonthlyUploadsLeft}
        onClose={() => setNoUploads(false)}
        footer={<SlButton onClick={() => setNoUploads(false)}>{TOUR_TEXTS.close}</SlButton>}
      >
        <p>{ERROR_TEXTS.upgradeHint}</p>
        <Link to="/account/subscriptions">{TOUR_TEXTS.upgradePlan}</Link>
      </Dialog>

      {open ? (
        <>
          <TourActionsDialog
            open={open.kind === 'actions'}
            tour={open.tour}
            team={open.team}
            onClose={close}
            onAction={(kind) => setOpen({ kind, tour: open.tour })}
          />
          <Suspense fallback={null}>
            {open.kind === 'info' ? (
              <TourInfoDialog open mode="edit" tour={open.tour} onClose={closeAndRefresh} onSaved={closeAndRefresh} />
            ) : null}
            {open.kind === 'qr' ? (
              <SharingDialog open showQr tourId={open.tour.id} title={open.tour.title} onClose={close} />
            ) : null}
            {open.kind === 'reels' ? <ReelsDialog open tourId={open.tour.id} onClose={close} /> : null}
            {open.kind === 'delete' ? (
              <DeleteTourDialog open tourId={open.tour.id} onClose={close} onDeleted={closeAndRefresh} />
            ) : null}
          </Suspense>
        </>
      ) : null}
      {aiEdit ? (
        <Suspense fallback={null}>
          <AiEditDialog open onClose={() => setAiEdit(false)} />
        </Suspense>
      ) : null}
    </Page>
  );
}
