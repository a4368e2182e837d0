/**
 * Android double-back: in the installed app on Android, back with no history shows
 * 'Press back again to exit' and a second press within 2 s leaves. Browsers own their back button, so
 * this applies only when the console runs standalone on Android.
 */
import { useEffect } from 'react';
import { ERROR_TEXTS, TIMINGS_MS } from '@roomwalk/shared';
import { useSnackbar } from '../ui/snackbar.js';

function isAndroidStandalone(win: Window = window): boolean {
  const android = /Android/i.test(win.navigator.userAgent);
  const standalone = win.matchMedia?.('(display-mode: standalone)').matches ?? false;
  return android && standalone;
}

/** Decides what a back press at the root does: warn first, exit when pressed again inside the window. */
export function createDoubleBack(now: () => number = Date.now) {
  let lastPress = -Infinity;
  return (): 'warn' | 'exit' => {
    const t = now();
    if (t - lastPress <= TIMINGS_MS.androidDoubleBack) return 'exit';
    lastPress = t;
    return 'warn';
  };
}

const GUARD = { roomwalkBackGuard: true };

export function useAndroidDoubleBack(enabled: boolean = isAndroidStandalone()) {
  const notify = useSnackbar();
  useEffect(() => {
    if (!enabled) return;
    const press = createDoubleBack();
    // A guard entry at the root of history turns the last back into a popstate we can see.
    if (window.history.length <= 1) window.history.pushState(GUARD, '');
    const onPop = () => {
      if (window.history.length > 2) return;
      if (press() === 'warn') {
        notify('info', ERROR_TEXTS.pressBackAgain);
        window.history.pushState(GUARD, '');
      } else {
        window.history.back();
      }
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [enabled, notify]);
}
