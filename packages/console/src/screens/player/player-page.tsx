/**
 * The player routes: /previewplayer, /editplayer (private), /playerext and /agentplayer (public), each a
 * <tour-player> in its mode with the address flags mapped onto it, and the console's Player Menu. This module is its
 * own chunk, so lit, the element and its decode worker load only here. The player shows its own notices (tour-notice);
 * the console does not repeat them in a snackbar, so each notice appears once.
 */
import { TourPlayer } from '@roomwalk/player-element/react';
import { serverUrl } from '../../config/page-config.js';
import { feedbackDisabled } from '../../ui/feedback-button.js';
import { SharingDialog } from '../tours/sharing-dialog.js';
import { PlayerMenu } from './player-menu.js';
import { usePlayer } from './use-player.js';
import '../tours/tours.css';

export default function PlayerPage() {
  const p = usePlayer();
  const { flags, mode } = p;
  return (
    <main className="player-page" data-mode={mode} data-feedback={feedbackDisabled(p.search) ? undefined : ''}>
      <h1 className="visually-hidden">{p.title ?? 'Tour'}</h1>
      <TourPlayer
        ref={p.element}
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
        liveSession={new URLSearchParams(p.search).get('session') ?? ''}
        hostEvents={flags.hostEvents}
        allowedOrigins={flags.hostOrigins.join(',')}
        debug={flags.debug}
        superAdmin={p.superAdmin}
        authToken={p.authToken}
        onTourMenuRequest={p.openMenu}
        onTourReady={(e) =>
          p.setTitle((e.currentTarget as HTMLElement & { tour?: { title?: string | null } | null }).tour?.title ?? null)
        }
      />
      <PlayerMenu open={p.menu} mode={mode} onClose={p.closeMenu} onAction={p.onAction} />
      {p.sharing ? <SharingDialog open tourId={flags.tourId} title={p.title} onClose={p.closeSharing} /> : null}
    </main>
  );
}
