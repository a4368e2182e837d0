/** Snackbars (accounts §8): success, warning, error and info, each with a close button, hidden after 4 s. */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import SlAlert from '@shoelace-style/shoelace/dist/react/alert/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { TIMINGS_MS } from '@roomwalk/shared';
import type { IconName } from './icon-names.js';

export type SnackbarVariant = 'success' | 'warning' | 'error' | 'info';
interface Snack {
  id: number;
  variant: SnackbarVariant;
  message: string;
  title?: string;
}

type Notify = (variant: SnackbarVariant, message: string, title?: string) => void;
const SnackbarContext = createContext<Notify>(() => undefined);

/** Shows a snackbar: notify('success', NOTICES.profileSaved). */
export const useSnackbar = (): Notify => useContext(SnackbarContext);

const SL_VARIANT = { success: 'success', warning: 'warning', error: 'danger', info: 'primary' } as const;
const ICON: Record<SnackbarVariant, IconName> = {
  success: 'check-circle',
  warning: 'exclamation-triangle',
  error: 'exclamation-octagon',
  info: 'info-circle',
};

export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [snacks, setSnacks] = useState<Snack[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setSnacks((all) => all.filter((s) => s.id !== id));
  }, []);

  const notify = useCallback<Notify>(
    (variant, message, title) => {
      const id = nextId.current++;
      setSnacks((all) => [...all.slice(-2), { id, variant, message, title }]);
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), TIMINGS_MS.snackbarAutoHide),
      );
    },
    [dismiss],
  );

  useEffect(() => {
    const map = timers.current;
    return () => {
      for (const t of map.values()) clearTimeout(t);
    };
  }, []);

  const value = useMemo(() => notify, [notify]);
  return (
    <SnackbarContext.Provider value={value}>
      {children}
      <div className="snackbar-region" role="status" aria-live="polite">
        {snacks.map((s) => (
          <SlAlert key={s.id} open closable variant={SL_VARIANT[s.variant]} data-variant={s.variant} className="snackbar" onSlAfterHide={(e) => e.target === e.currentTarget && dismiss(s.id)}>
            <SlIcon slot="icon" name={ICON[s.variant]} />
            {s.title ? <strong>{s.title}: </strong> : null}
            {s.message}
          </SlAlert>
        ))}
      </div>
    </SnackbarContext.Provider>
  );
}
