import { PLAYER } from '@roomwalk/shared/constants';

/** Drawer open rules of tours §2 and §9. */
export function shouldOpenDrawer(o: {
  viewportWidth: number;
  hostWidth: number;
  hostHeight: number;
  canvasWidth: number;
  canvasHeight: number;
  menuHeight: number;
  portrait: boolean;
  liveViewing: boolean;
}): boolean {
  if (o.liveViewing) return false;
  if (o.viewportWidth > PLAYER.drawerOpenMinWidth) return true;
  // Room for more than 450 px of canvas beside the drawer.
  if (o.hostWidth - PLAYER.drawerWidth > PLAYER.drawerCanvasRoom && o.hostWidth - PLAYER.drawerWidth >= o.canvasWidth) return true;
  if (o.portrait) return o.hostHeight - o.canvasHeight - o.menuHeight > PLAYER.autoOpenPortraitSpareHeight;
  return o.hostWidth - o.canvasWidth > PLAYER.autoOpenLandscapeSpareWidth;
}

/** The least the bottom drawer gets on a narrow layout: its title and about three rooms (the list scrolls). */
const DRAWER_MIN_FIT = 132;

/**
 * How tall the bottom drawer of a narrow layout may grow: the height the picture (at its size with the drawer closed)
 * and the joystick leave free, never under three rows. In a short embed with many rooms the drawer scrolls instead of
 * shrinking the picture to a strip (issue 19).
 */
export function drawerFitHeight(o: { hostHeight: number; menuHeight: number; canvasHeight: number; joystickRoom: number }): number {
  return Math.max(DRAWER_MIN_FIT, Math.floor(o.hostHeight - o.menuHeight - 16 - o.canvasHeight - o.joystickRoom));
}
