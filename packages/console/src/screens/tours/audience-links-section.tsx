/**
 * Sharing Options' audience links (docs/access-and-privacy.md): each link with its name, status, end date, the rooms
 * it hides and its visits; Copy link and Revoke (asked once more, since it cannot be undone); and the form for a new
 * one. The list reads the server's answer again after each change.
 */
import { useEffect, useRef, useState } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { NOTICES } from '@roomwalk/shared';
import { useClipboard } from '../../state/use-clipboard.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { AudienceLinkForm } from './audience-link-form.js';
import { AUDIENCE_LINK_TEXTS as T } from './audience-link-texts.js';
import { audienceLinkUrl } from './share-links.js';
import { useAudienceLinks, useRevokeAudienceLink } from './use-audience-links.js';

interface LinkItem {
  id: string;
  label: string;
  url: string;
  status: string;
  expiresAt?: unknown;
  hiddenMarkerIds: readonly string[];
  unbranded: boolean;
  visits: number;
  leadGate?: { mode: string; markerId?: string | null; seconds?: number | null; approval: boolean } | null;
}

/** The link's own lead form in the summary (nothing when it keeps the tour's). */
function gateSummary(g: LinkItem['leadGate'], roomName: (id: string) => string | undefined): string[] {
  if (!g) return [];
  if (g.mode === 'ROOM' && g.markerId) return [T.gateRoom(roomName(g.markerId) ?? '', g.approval)];
  if (g.mode === 'SECONDS' && g.seconds) return [T.gateSeconds(g.seconds, g.approval)];
  return [T.gateOff];
}

/** Focuses a Shoelace button once it has drawn its inner button (a new one has not yet). */
function focusWhenDrawn(el: Element | null | undefined): void {
  const button = el as (HTMLElement & { updateComplete?: Promise<unknown> }) | null | undefined;
  void button?.updateComplete?.then(() => button.focus());
}

const day = (v: unknown): string =>
  new Date(String(v)).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/** The line under a link's name: its end, the rooms it hides, whether unbranded, its visits. */
function linkSummary(l: LinkItem, roomName: (id: string) => string | undefined): string[] {
  const hidden = l.hiddenMarkerIds.map((id) => roomName(id)).filter((n): n is string => !!n);
  return [
    l.expiresAt ? (l.status === 'EXPIRED' ? T.expiredOn(day(l.expiresAt)) : T.expiresOn(day(l.expiresAt))) : T.noExpiry,
    hidden.length ? T.hides(hidden.join(', ')) : T.showsAll,
    ...(l.unbranded ? [T.unbrandedTag] : []),
    ...gateSummary(l.leadGate, roomName),
    T.visits(l.visits),
  ];
}

function LinkRow({
  link,
  roomName,
  onRevoked,
  liveViewing,
}: {
  link: LinkItem;
  roomName: (id: string) => string | undefined;
  onRevoked: () => void;
  liveViewing: boolean;
}) {
  const copy = useClipboard();
  const [asking, setAsking] = useState(false);
  const { revoking, error, revoke } = useRevokeAudienceLink(link.id, onRevoked);
  // Keyboard focus follows the question: to its first answer when asked, back to Revoke when kept.
  const confirmBox = useRef<HTMLFieldSetElement>(null);
  const actions = useRef<HTMLDivElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (asking) focusWhenDrawn(confirmBox.current?.querySelector('sl-button'));
    else if (asked.current) focusWhenDrawn(actions.current?.querySelectorAll('sl-button')[1]);
    asked.current = asking;
  }, [asking]);
  const live = link.status === 'ACTIVE';
  const confirm = async () => {
    if (await revoke()) setAsking(false);
  };
  return (
    <li className="audience-link" data-status={link.status}>
      <div className="audience-link-head">
        <strong>{link.label}</strong>{' '}
        <span className={`badge status-${link.status.toLowerCase()}`}>{T.status[link.status] ?? link.status}</span>
      </div>
      <p className="field-hint">{linkSummary(link, roomName).join(' · ')}</p>
      {asking ? (
        <fieldset className="stack revoke-confirm" ref={confirmBox}>
          <legend>{T.revokeConfirm(link.label)}</legend>
          <div className="row">
            <SlButton variant="danger" loading={revoking} onClick={() => void confirm()}>
              {T.revokeYes}
            </SlButton>
            <SlButton onClick={() => setAsking(false)}>{T.keep}</SlButton>
          </div>
        </fieldset>
      ) : live ? (
        <div className="row" ref={actions}>
          <SlButton
            onClick={() => void copy.copy(audienceLinkUrl(link.url, liveViewing, link.unbranded))}
            loading={copy.state === 'copying'}
          >
            {copy.state === 'copied' ? NOTICES.copied : copy.state === 'error' ? NOTICES.copyFailed : T.copy}
          </SlButton>
          <SlButton onClick={() => setAsking(true)}>{T.revoke}</SlButton>
        </div>
      ) : null}
      {error ? (
        <p className="form-failure" role="alert">
          {error}
        </p>
      ) : null}
    </li>
  );
}

export function AudienceLinksSection({
  tourId,
  passwordTour,
  liveViewing = false,
}: {
  tourId: string;
  passwordTour: boolean;
  /** The owner offers live viewing (Edit Info): the copied links carry it, like every branded link. */
  liveViewing?: boolean;
}) {
  const { rooms, roomName, links, loadError, fetching, reload } = useAudienceLinks(tourId);
  const [adding, setAdding] = useState(false);
  const notify = useSnackbar();
  return (
    <section className="stack audience-links" aria-labelledby="audience-links-title" data-testid="audience-links">
      <h3 id="audience-links-title">{T.heading}</h3>
      <p className="field-hint">{T.intro}</p>
      {passwordTour ? <p className="field-hint">{T.passwordStill}</p> : null}
      {loadError ? (
        <p className="form-failure" role="alert">
          {loadError}
        </p>
      ) : links.length ? (
        <ul className="audience-link-list">
          {links.map((l) => (
            <LinkRow key={l.id} link={l} roomName={roomName} onRevoked={reload} liveViewing={liveViewing} />
          ))}
        </ul>
      ) : fetching ? null : (
        <p>{T.none}</p>
      )}
      {adding ? (
        <AudienceLinkForm
          tourId={tourId}
          rooms={rooms}
          onCancel={() => setAdding(false)}
          onDone={() => {
            setAdding(false);
            notify('success', T.created);
            reload();
          }}
        />
      ) : (
        <SlButton onClick={() => setAdding(true)}>{T.newLink}</SlButton>
      )}
    </section>
  );
}
