/**
 * The Player Menu per mode: edit '(Edit Mode)' with Sharing Options, Preview Tour, Save & Exit; preview with
 * Edit Tour and Exit Preview; external (and agent) with Exit Tour only. Footer links: /privacy, /terms, /licenses.
 */
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { Dialog } from '../../ui/dialog.js';
import { TOUR_TEXTS } from '../tours/texts.js';

export type PlayerRouteMode = 'edit' | 'preview' | 'external' | 'agent';
export type MenuAction = 'sharing' | 'share-here' | 'preview' | 'edit' | 'exit';

/** The menu's items in order, per mode. */
export function menuItems(mode: PlayerRouteMode): Array<{ action: MenuAction; label: string }> {
  if (mode === 'edit')
    return [
      { action: 'sharing', label: TOUR_TEXTS.sharingOptions },
      { action: 'share-here', label: TOUR_TEXTS.shareFromHere },
      { action: 'preview', label: TOUR_TEXTS.previewTour },
      { action: 'exit', label: TOUR_TEXTS.saveAndExit },
    ];
  if (mode === 'preview')
    return [
      { action: 'edit', label: TOUR_TEXTS.editTour },
      { action: 'share-here', label: TOUR_TEXTS.shareFromHere },
      { action: 'exit', label: TOUR_TEXTS.exitPreview },
    ];
  return [
    { action: 'share-here', label: TOUR_TEXTS.shareFromHere },
    { action: 'exit', label: TOUR_TEXTS.exitTour },
  ];
}

export const menuTitle = (mode: PlayerRouteMode): string =>
  mode === 'edit' ? `${TOUR_TEXTS.playerMenu} ${TOUR_TEXTS.editMode}` : TOUR_TEXTS.playerMenu;

export function PlayerMenu({
  open,
  mode,
  onClose,
  onAction,
}: {
  open: boolean;
  mode: PlayerRouteMode;
  onClose: () => void;
  onAction: (a: MenuAction) => void;
}) {
  return (
    <Dialog
      open={open}
      label={menuTitle(mode)}
      onClose={onClose}
      className="player-menu"
      footer={
        <nav className="player-menu-footer" aria-label="Legal">
          {/* A new tab: the tour (often inside a listing site's frame) stays where the visitor left it. */}
          <a href="/privacy" target="_blank" rel="noopener">
            {TOUR_TEXTS.privacy}
          </a>
          <a href="/terms" target="_blank" rel="noopener">
            {TOUR_TEXTS.terms2}
          </a>
          <a href="/licenses" target="_blank" rel="noopener">
            {TOUR_TEXTS.licenses}
          </a>
        </nav>
      }
    >
      <ul className="action-list">
        {menuItems(mode).map((item) => (
          <li key={item.action}>
            <SlButton className="action-button" variant="default" onClick={() => onAction(item.action)}>
              {item.label}
            </SlButton>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
