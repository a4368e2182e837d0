/**
 * A confirmed removal of a listed item (Revoke an API key, Delete a webhook endpoint): the item asked about,
 * the dialog with its busy and failure states, the snackbar once done, and where focus goes after: the row that
 * opened the dialog is gone, so once the dialog has hidden (Shoelace then tries the opener) and the row has left the
 * list, the section heading takes it.
 */
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { describeFailure } from '../../graphql/errors.js';
import { Dialog } from '../../ui/dialog.js';
import { FormFailure } from '../../ui/form-dialog.js';
import { useSnackbar } from '../../ui/snackbar.js';

type Failure = Parameters<typeof describeFailure>[0];

function useFocusAfterRemoval(target: RefObject<HTMLElement | null>, stillListed: (id: string) => boolean) {
  /** Wraps the confirmation dialog; its sl-after-hide bubbles here. */
  const wrapper = useRef<HTMLDivElement>(null);
  const [pending, setPending] = useState<{ id: string; hidden: boolean } | null>(null);
  useEffect(() => {
    const el = wrapper.current;
    if (!el) return;
    const onHide = (e: Event) => {
      if ((e.target as Element).localName === 'sl-dialog') setPending((p) => (p ? { ...p, hidden: true } : p));
    };
    el.addEventListener('sl-after-hide', onHide);
    return () => el.removeEventListener('sl-after-hide', onHide);
  }, []);
  const gone = pending?.hidden && !stillListed(pending.id);
  useEffect(() => {
    if (!gone) return;
    target.current?.focus();
    setPending(null);
  }, [gone, target]);
  /** Call when the row `id` was removed; focus moves once its dialog has hidden and the list no longer shows it. */
  const removed = (id: string) => setPending({ id, hidden: false });
  return { wrapper, removed };
}

export interface Removal<T> {
  /** The item the dialog asks about (null: closed). */
  target: T | null;
  ask(item: T): void;
  cancel(): void;
  confirm(): Promise<void>;
  busy: boolean;
  failure: string | null;
  wrapper: RefObject<HTMLDivElement | null>;
}

export function useConfirmedRemoval<T extends { id: string }>(o: {
  items: readonly T[];
  /** The section heading, which takes focus once the row is gone. */
  heading: RefObject<HTMLElement | null>;
  remove: (item: T) => Promise<{ error?: Failure }>;
  doneText: string;
  onChanged: () => void;
}): Removal<T> {
  const [target, setTarget] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const notify = useSnackbar();
  const focus = useFocusAfterRemoval(o.heading, (id) => o.items.some((i) => i.id === id));
  return {
    target,
    busy,
    failure,
    wrapper: focus.wrapper,
    ask: (item) => {
      setFailure(null);
      setTarget(item);
    },
    cancel: () => setTarget(null),
    confirm: async () => {
      if (!target) return;
      setBusy(true);
      const r = await o.remove(target);
      setBusy(false);
      if (r.error) return setFailure(describeFailure(r.error));
      focus.removed(target.id);
      setTarget(null);
      notify('success', o.doneText);
      o.onChanged();
    },
  };
}

/** The confirmation dialog of a removal: Cancel, and the danger action that runs it. */
export function ConfirmRemovalDialog<T>({
  removal,
  label,
  action,
  children,
}: {
  removal: Removal<T>;
  label: string;
  action: string;
  children: ReactNode;
}) {
  return (
    <div ref={removal.wrapper}>
      <Dialog
        open={!!removal.target}
        label={label}
        onClose={removal.cancel}
        persistent={removal.busy}
        footer={
          <>
            <SlButton onClick={removal.cancel}>Cancel</SlButton>
            <SlButton variant="danger" loading={removal.busy} onClick={() => void removal.confirm()}>
              {action}
            </SlButton>
          </>
        }
      >
        {children}
        <FormFailure failure={removal.failure} />
      </Dialog>
    </div>
  );
}
