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
