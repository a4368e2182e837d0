/** A Shoelace dialog driven by React state: focus is trapped inside and returns to the opener when it closes. */
import { useEffect, useRef, type ReactNode } from 'react';
import SlDialog from '@shoelace-style/shoelace/dist/react/dialog/index.js';
import type SlDialogElement from '@shoelace-style/shoelace/dist/components/dialog/dialog.js';
import { useSnackbarHost } from './snackbar.js';

export interface DialogProps {
  open: boolean;
  label: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** Full-screen (the terms document). */
  fullscreen?: boolean;
  /** Keep open on Escape, overlay click or the close button, which is hidden (busy states). */
  persistent?: boolean;
  className?: string;
}

export function Dialog({ open, label, onClose, children, footer, fullscreen, persistent, className }: DialogProps) {
  const opener = useRef<Element | null>(null);
  const ref = useRef<SlDialogElement>(null);
  const toastHost = useSnackbarHost();

  useEffect(() => {
    if (open) opener.current = document.activeElement;
  }, [open]);

  return (
    <SlDialog
      ref={ref}
      open={open}
      label={label}
      // A dialog that cannot be closed shows no close button (an X that does nothing).
      className={
        [fullscreen ? 'dialog-fullscreen' : '', persistent ? 'dialog-persistent' : '', className ?? '']
          .join(' ')
          .trim() || undefined
      }
      onSlRequestClose={(e) => {
        if (e.target !== e.currentTarget) return;
        if (persistent) {
          e.preventDefault();
          return;
        }
        onClose();
      }}
      onSlAfterHide={(e) => {
        if (e.target !== e.currentTarget) return;
        const el = opener.current as HTMLElement | null;
        if (el && typeof el.focus === 'function' && el.isConnected) el.focus();
      }}
    >
      {open ? (
        fullscreen ? (
          // The long document scrolls in its own focusable region, so keyboard users can scroll it (WCAG 2.1.1).
          // biome-ignore lint/a11y/useSemanticElements lint/a11y/noNoninteractiveTabindex: a scrollable region takes focus for keyboard scrolling
          <div className="dialog-scroll" tabIndex={0} role="region" aria-label={label}>
            {children}
          </div>
        ) : (
          children
        )
      ) : null}
      {/*
        Snackbars while this dialog is open: in its footer, above the buttons, outside the body that scrolls. In the
        body (even sticky at its top) a toast lay over the text scrolled under it on a phone.
      */}
      {open ? (
        <div slot="footer" className="dialog-footer-area">
          <div className="dialog-toasts" ref={toastHost} />
          {footer ? <div className="dialog-footer">{footer}</div> : null}
        </div>
      ) : null}
    </SlDialog>
  );
}
