/** Page frame: an optional back action and a heading, which receives focus on navigation for screen readers. */
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import SlIconButton from '@shoelace-style/shoelace/dist/react/icon-button/index.js';
import { FeedbackButton } from './feedback-button.js';

export interface PageProps {
  title: string;
  children: ReactNode;
  /** Path of the back action; 'history' goes back one entry, or to / when the page is the tab's first entry. */
  back?: string | 'history';
  actions?: ReactNode;
  narrow?: boolean;
  className?: string;
  /** Hide the heading visually (it still names the page). */
  hideTitle?: boolean;
}

export function Page({ title, children, back, actions, narrow, className, hideTitle }: PageProps) {
  const navigate = useNavigate();
  // The first entry of this tab (a legal page opened in a new tab): going back would leave the app, so go home instead.
  const firstEntry = useLocation().key === 'default';
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Roomwalk`;
    heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <main className={['page', narrow ? 'page-narrow' : '', className ?? ''].join(' ').trim()}>
      <header className="page-header">
        {back ? (
          <SlIconButton
            name="arrow-left"
            label="Back"
            className="back-button"
            onClick={() => (back === 'history' ? (firstEntry ? navigate('/') : navigate(-1)) : navigate(back))}
          />
        ) : null}
        <h1 ref={heading} tabIndex={-1} className={hideTitle ? 'visually-hidden' : undefined}>
          {title}
        </h1>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </header>
      {children}
      {/* In the page's flow, after its content: the button never covers text or controls. */}
      <footer className="page-footer">
        <FeedbackButton placement="in-flow" />
      </footer>
    </main>
  );
}

/** A centered spinner while a page's data loads. */
export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
