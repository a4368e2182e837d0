/**
 * Clipboard copy states: idle, copying, copied or error, back to idle after 6 s; failure shows 'Failed'.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { NOTICES, TIMINGS_MS } from '@roomwalk/shared';
import { useSnackbar } from '../ui/snackbar.js';

export type CopyState = 'idle' | 'copying' | 'copied' | 'error';

export function useClipboard(clipboard: Pick<Clipboard, 'writeText'> | undefined = navigator.clipboard) {
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const notify = useSnackbar();
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = useCallback(
    async (text: string) => {
      clearTimeout(timer.current);
      setState('copying');
      try {
        if (!clipboard) throw new Error('Clipboard unavailable');
        await clipboard.writeText(text);
        setState('copied');
      } catch {
        setState('error');
        notify('error', NOTICES.copyFailed);
      }
      timer.current = setTimeout(() => setState('idle'), TIMINGS_MS.copyFeedback);
    },
    [clipboard, notify],
  );
  return { state, copy };
}
