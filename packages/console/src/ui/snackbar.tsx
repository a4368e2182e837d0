/**
 * Snackbars: success, warning, error and info, each with a close button, hidden after 4 s. While a
 * dialog is open they show in the dialog's footer above its buttons (a host the dialog registers), outside the body
 * that scrolls: fixed at the bottom of the screen they lay over Cancel and Save, sticky in the body over its text, and
 * outside a modal dialog no screen reader hears them.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import SlAlert from '@shoelace-style/shoelace/dist/react/alert/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { TIMINGS_MS } from '@roomwalk/shared';
import type { IconName } from './icon-names.js';

type SnackbarVariant = 'success' | 'warning' | 'error' | 'info';
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

type HostRef = (el: HTMLElement | null) => void;
const HostContext = createContext<(el: HTMLElement, on: boolean) => void>(() => undefined);

/** A ref for the element snackbars show in while it is mounted (the open dialog's body); the newest one wins. */
export function useSnackbarHost(): HostRef {
  const register = useContext(HostContext);
  const current = useRef<HTMLElement | null>(null);
  return useCallback<HostRef>(
    (el) => {
      if (current.current) register(current.current, false);
      current.current = el;
      if (el) register(el, true);
    },
    [register],
  );
}

const SL_VARIANT = { success: 'success', warning: 'warning', error: 'danger', info: 'primary' } as const;
const ICON: Record<SnackbarVariant, IconName> = {
  success: 'check-circle',
  warning: 'exclamation-triangle',
  error: 'exclamation-octagon',
  info: 'info-circle',
};

export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [snacks, setSnacks] = useState<Snack[]>([]);
  const [hosts, setHosts] = useState<HTMLElement[]>([]);
  const registerHost = useCallback(
    (el: HTMLElement, on: boolean) =>
      setHosts((all) => (on ? [...all.filter((h) => h !== el), el] : all.filter((h) => h !== el))),
    [],
  );
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
  const host = hosts.at(-1);
  const alerts = snacks.map((s) => (
    <SlAlert
      key={s.id}
      open
      closable
      variant={SL_VARIANT[s.variant]}
      data-variant={s.variant}
      className="snackbar"
      onSlAfterHide={(e) => e.target === e.currentTarget && dismiss(s.id)}
    >
      <SlIcon slot="icon" name={ICON[s.variant]} />
      {s.title ? <strong>{s.title}: </strong> : null}
      {s.message}
    </SlAlert>
  ));
  return (
    <SnackbarContext.Provider value={value}>
      <HostContext.Provider value={registerHost}>{children}</HostContext.Provider>
      {host ? (
        createPortal(
          <div className="snackbar-region snackbar-in-dialog" role="status" aria-live="polite">
            {alerts}
          </div>,
          host,
        )
      ) : (
        <div className="snackbar-region" role="status" aria-live="polite">
          {alerts}
        </div>
      )}
    </SnackbarContext.Provider>
  );
}
