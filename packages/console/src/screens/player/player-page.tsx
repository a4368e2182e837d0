/**
 * The player routes (tours §2): /previewplayer, /editplayer (private), /playerext and /agentplayer (public), each a
 * <tour-player> in its mode with the address flags mapped onto it, and the console's Player Menu. This module is its
 * own chunk, so lit, the element and its decode worker load only here. The player shows its own notices (tour-notice);
 * the console does not repeat them in a snackbar, so each notice appears once.
 */
import { useEffect, useRef, useState } from 'react';
import { NOTICES } from '@roomwalk/shared';
import { useLocation, useNavigate } from 'react-router-dom';
import { useQuery } from 'urql';
import { TourPlayer } from '@roomwalk/player-element/react';
import type { TourPlayer as TourPlayerElement } from '@roomwalk/player-element';
import { serverUrl } from '../../config/page-config.js';
import { SuperAdminQuery } from './player-operations.js';
import { useSession } from '../../session/session-context.js';
import { SharingDialog } from '../tours/sharing-dialog.js';
import { playerUrlAt } from '../tours/share-links.js';
import { useClipboard } from '../../state/use-clipboard.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { PlayerMenu, type MenuAction, type PlayerRouteMode } from './player-menu.js';
import { readPlayerFlags } from './player-flags.js';
import { feedbackDisabled } from '../../ui/feedback-button.js';
import '../tours/tours.css';

const MODE_BY_PATH: Record<string, PlayerRouteMode> = {
  '/previewplayer': 'preview',
  '/editplayer': 'edit',
  '/playerext': 'external',
  '/agentplayer': 'agent',
};

export const modeForPath = (pathname: string): PlayerRouteMode => MODE_BY_PATH[pathname.replace(/\/+$/, '')] ?? 'external';

export default function PlayerPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const { authenticated, token } = useSession();
  const mode = modeForPath(location.pathname);
  const flags = readPlayerFlags(location.search);
  const [menu, setMenu] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [title, setTitle] = useState<string | null>(null);
  const element = useRef<TourPlayerElement>(null);
  const shareCopy = useClipboard();
  const notify = useSnackbar();
  const [{ data: viewer }] = useQuery({ query: SuperAdminQuery, pause: !authenticated || mode !== 'edit' });

  useEffect(() => {
    document.title = `${title ?? 'Tour'} · Roomwalk`;
  }, [title]);

  const onAction = (a: MenuAction) => {
    setMenu(false);
    const q = location.search;
    if (a === 'sharing') setSharing(true);
    else if (a === 'share-here') {
      // "Share from here": the external link that opens at the room the visitor is in (or the frame, before any room).
      const el = element.current;
      // Through an audience link, the link shared on is the same link (never the tour's own, which shows every room).
      const at = playerUrlAt(flags.tourId, { room: el?.currentRoom?.name ?? null, frame: el?.currentFrame ?? 0 });
      const link = flags.audienceLink ? `${at}&link=${flags.audienceLink}` : at;
      void shareCopy.copy(link).then(() => notify('success', `${NOTICES.copied}: ${link}`));
    } else if (a === 'preview') navigate(`/previewplayer${q}`);
    else if (a === 'edit') navigate(`/editplayer${q}`);
    // Inside a listing site's frame, leaving opens Roomwalk in a new tab rather than replacing the tour.
    else if (window.top !== window) window.open('/', '_blank', 'noopener');
    else navigate('/');
  };

  return (
    <main className="player-page" data-mode={mode} data-feedback={feedbackDisabled(location.search) ? undefined : ''}>
      <h1 className="visually-hidden">{title ?? 'Tour'}</h1>
      <TourPlayer
        ref={element}
        className="player-element"
        loading="eager"
        startRoom={flags.room}
        startFrame={flags.frame}
        unbranded={flags.unbranded}
        audienceLink={flags.audienceLink}
        tourId={flags.tourId}
        api={serverUrl()}
        mode={mode}
        disabledControls={flags.disabledControls.join(',')}
        hiRes={flags.hiRes}
        liveViewing={flags.liveViewing}
        liveSession={new URLSearchParams(location.search).get('session') ?? ''}
        hostEvents={flags.hostEvents}
        allowedOrigins={flags.hostOrigins.join(',')}
        debug={flags.debug}
        superAdmin={!!viewer?.me.user.isSuperAdmin}
        authToken={authenticated ? (token ?? undefined) : undefined}
        onTourMenuRequest={() => setMenu(true)}
        onTourReady={(e) => setTitle((e.currentTarget as HTMLElement & { tour?: { title?: string | null } | null }).tour?.title ?? null)}
      />
      <PlayerMenu open={menu} mode={mode} onClose={() => setMenu(false)} onAction={onAction} />
      {sharing ? <SharingDialog open tourId={flags.tourId} title={title} onClose={() => setSharing(false)} /> : null}
    </main>
  );
}
