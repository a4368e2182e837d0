/**
 * Where focus goes after a confirmation removed the row that opened it (Revoke, Delete): the opener is gone, so once
 * the dialog has hidden (Shoelace then tries the opener) and the row has left the list, the section heading takes it.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';

export function useFocusAfterRemoval(target: RefObject<HTMLElement | null>, stillListed: (id: string) => boolean) {
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
