import { PLAYER } from '@roomwalk/shared/constants';
import { JOYSTICK_ROOM, joystickRoom } from './frame-math.js';

/** The element's width from which it lays out as desktop (drawer and Tour Info beside the picture). */
export const DESKTOP_MIN_WIDTH = 900;

/** The least the bottom drawer gets on a narrow layout: its title and about three rooms (the list scrolls). */
const DRAWER_MIN_FIT = 132;
/** The drawer never opens by itself where it would leave the picture less than this share of its width. */
const MIN_PICTURE_SHARE = 0.8;

/**
 * Where the drawer goes: beside the picture on desktop and in a landscape box in a short window (a phone on its side,
 * where a drawer below would leave a strip of picture); below it otherwise (its height then fits the room the picture
 * leaves, drawerFitHeight).
 */
export const drawerBeside = (hostWidth: number, hostHeight: number, viewportHeight?: number): boolean =>
  hostWidth >= DESKTOP_MIN_WIDTH || (hostWidth > hostHeight && !joystickRoom(viewportHeight));

/**
 * How tall the bottom drawer of a narrow layout may grow: the height the picture (at its size with the drawer closed)
 * and the joystick leave free, never under three rows. In a short embed with many rooms the drawer scrolls instead of
 * shrinking the picture to a strip.
 */
export function drawerFitHeight(o: {
  hostHeight: number;
  menuHeight: number;
  canvasHeight: number;
  joystickRoom: number;
}): number {
  return Math.max(DRAWER_MIN_FIT, Math.floor(o.hostHeight - o.menuHeight - 16 - o.canvasHeight - o.joystickRoom));
}

interface DrawerBox {
  hostWidth: number;
  hostHeight: number;
  canvasWidth: number;
  canvasHeight: number;
  menuHeight: number;
  /** The window's height (where the joystick goes); the current window's by default. */
  viewportHeight?: number;
}

/** The picture's width with the drawer open, as a share of its width with it closed (the stage's CSS sizing rules). */
export function pictureShareWithDrawer(o: DrawerBox): number {
  const room = joystickRoom(o.viewportHeight);
  const stage = o.hostHeight - o.menuHeight - 16 - room;
  // Beside: the stage loses the drawer's width (and, in a short window, the joystick's room at its side); below: the
  // drawer takes the height left free, at least DRAWER_MIN_FIT.
  const width = drawerBeside(o.hostWidth, o.hostHeight, o.viewportHeight)
    ? Math.min(
        o.hostWidth - PLAYER.drawerWidth - 16 - (room ? 0 : JOYSTICK_ROOM),
        (stage * o.canvasWidth) / o.canvasHeight,
      )
    : ((stage - Math.min(o.hostHeight / 2, PLAYER.drawerMaxHeight, drawerFitHeight({ ...o, joystickRoom: room }))) *
        o.canvasWidth) /
      o.canvasHeight;
  return Math.max(0, Math.min(width, o.canvasWidth)) / o.canvasWidth;
}

/**
 * Drawer open rules, and one of ours: it never opens by itself where it would shrink the picture
 * below 80 % of its size with the drawer closed (on a phone on its side the drawer below left a 176x99
 * picture).
 */
export function shouldOpenDrawer(
  o: DrawerBox & {
    viewportWidth: number;
    portrait: boolean;
    liveViewing: boolean;
  },
): boolean {
  if (o.liveViewing) return false;
  if (pictureShareWithDrawer(o) < MIN_PICTURE_SHARE) return false;
  if (o.viewportWidth > PLAYER.drawerOpenMinWidth) return true;
  // Room for more than 450 px of canvas beside the drawer (a picture that fills the page gives up some of its width,
  // within the 80 % above).
  if (o.hostWidth - PLAYER.drawerWidth > PLAYER.drawerCanvasRoom) return true;
  if (o.portrait) return o.hostHeight - o.canvasHeight - o.menuHeight > PLAYER.autoOpenPortraitSpareHeight;
  return o.hostWidth - o.canvasWidth > PLAYER.autoOpenLandscapeSpareWidth;
}
