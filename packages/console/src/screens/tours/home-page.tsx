/**
 * Home, My Tours: alerts, the tours (tour-sections.tsx: Processing Tours with live percentages, Failed Tours, Roomwalk
 * Tours with 'Load more tours...'), Team Tours, the Add button with its quota gate, the card's dialogs
 * (tour-card-dialogs.tsx) and the floating AI Edit button when the address asks for it.
 */
import { lazy, Suspense, useCallback, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { ERROR_TEXTS, canUpload } from '@roomwalk/shared';
import { LicenseFields } from '../account/account-operations.js';
import { readFragment } from '../../graphql/graphql.js';
import { AccountAlerts } from '../account/account-alerts.js';
import { DataLoadError } from '../../ui/data-load-error.js';
import { Dialog } from '../../ui/dialog.js';
import { Loading, Page } from '../../ui/page.js';
import type { TourCardData } from './tour-card.js';
import { TourCardDialogs, type OpenCard } from './tour-card-dialogs.js';
import { TourSections } from './tour-sections.js';
import { TOUR_TEXTS } from './texts.js';
import { useTourPages } from './use-tour-pages.js';
import { showAiEdit } from '../player/player-flags.js';
import { TeamTours } from './team-tours.js';
import './tours.css';

const AiEditDialog = lazy(() => import('./ai-edit-dialog.js'));

export default function HomePage() {
  const { home, tours, hasNextPage, loadMore, loadingMore, moreError, refresh } = useTourPages();
  const navigate = useNavigate();
  const location = useLocation();
  const [noUploads, setNoUploads] = useState(false);
  const [open, setOpen] = useState<OpenCard | null>(null);
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
  const openCard = (tour: TourCardData, team = false) => setOpen({ kind: 'actions', tour, team });
  const closeAndRefresh = () => {
    setOpen(null);
    void refresh();
  };

  return (
    <Page title={TOUR_TEXTS.myTours} actions={actions} className="tours-home">
      <AccountAlerts email={user.profile?.email ?? user.username} activated={user.activated} license={license} />

      <TourSections
        tours={tours}
        hasNextPage={hasNextPage}
        loadMore={loadMore}
        loadingMore={loadingMore}
        moreError={moreError}
        onOpen={openCard}
        onDelete={(tour) => setOpen({ kind: 'delete', tour })}
        onSettled={onSettled}
      />

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
        <TourCardDialogs open={open} onOpen={setOpen} onClose={() => setOpen(null)} onChanged={closeAndRefresh} />
      ) : null}
      {aiEdit ? (
        <Suspense fallback={null}>
          <AiEditDialog open onClose={() => setAiEdit(false)} />
        </Suspense>
      ) : null}
    </Page>
  );
}
