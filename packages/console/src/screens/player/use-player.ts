/**
 * The player routes' state: the mode the address opens, its flags, the Player Menu and the sharing dialog, the
 * tour's title (the document's title), whether the viewer is a super admin (the editor's extra controls), and what each
 * menu action does.
 */
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useQuery } from 'urql';
import { NOTICES } from '@roomwalk/shared';
import type { TourPlayer as TourPlayerElement } from '@roomwalk/player-element';
import { useSession } from '../../session/session-context.js';
import { useClipboard } from '../../state/use-clipboard.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { readPlayerFlags } from './player-flags.js';
import type { MenuAction } from './player-menu.js';
import { SuperAdminQuery } from './player-operations.js';
import { modeForPath, shareFromHereLink } from './player-rules.js';

export function usePlayer() {
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
      const el = element.current;
      const link = shareFromHereLink(
        flags.tourId,
        { room: el?.currentRoom?.name ?? null, frame: el?.currentFrame ?? 0 },
        flags.audienceLink,
      );
      void shareCopy.copy(link).then(() => notify('success', `${NOTICES.copied}: ${link}`));
    } else if (a === 'preview') navigate(`/previewplayer${q}`);
    else if (a === 'edit') navigate(`/editplayer${q}`);
    // Inside a listing site's frame, leaving opens Roomwalk in a new tab rather than replacing the tour.
    else if (window.top !== window) window.open('/', '_blank', 'noopener');
    else navigate('/');
  };

  return {
    search: location.search,
    mode,
    flags,
    element,
    title,
    setTitle,
    superAdmin: !!viewer?.me.user.isSuperAdmin,
    authToken: authenticated ? (token ?? undefined) : undefined,
    menu,
    openMenu: () => setMenu(true),
    closeMenu: () => setMenu(false),
    sharing,
    closeSharing: () => setSharing(false),
    onAction,
  };
}
