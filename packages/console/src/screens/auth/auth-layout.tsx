/** Frame of the public auth screens: brand, heading (focused on arrival) and content. */
import { useEffect, useRef, type ReactNode } from 'react';
import { PRODUCT_NAME } from '@roomwalk/shared';
import { FeedbackButton } from '../../ui/feedback-button.js';

export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · ${PRODUCT_NAME}`;
    heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <main className="auth">
      <div className="brand" aria-hidden="true">
        <img src="/favicon.svg" alt="" width="28" height="28" /> {PRODUCT_NAME}
      </div>
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {children}
      <footer className="page-footer">
        <FeedbackButton placement="in-flow" />
      </footer>
    </main>
  );
}
