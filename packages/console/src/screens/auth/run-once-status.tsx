/** Activation-style screens: run one mutation on load, then success (move to / after 2 s) or failure. */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { Loading } from '../../ui/page.js';
import { AuthLayout } from './auth-layout.js';

export type RunStatus = 'pending' | 'success' | 'failure' | 'notice';

/** A third ending that is neither success nor failure (e.g. an account that is already active), with its own action. */
export interface RunNotice {
  title: string;
  text: string;
  action?: ReactNode;
}

export interface RunOnceProps {
  title: string;
  run: () => Promise<boolean | RunNotice>;
  waiting: string;
  success: { title: string; text?: string };
  failure: { title: string; text: string };
  redirectMs: number;
  footer?: ReactNode;
}

export function RunOnceStatus({ title, run, waiting, success, failure, redirectMs, footer }: RunOnceProps) {
  const [status, setStatus] = useState<RunStatus>('pending');
  const [notice, setNotice] = useState<RunNotice | null>(null);
  const navigate = useNavigate();
  const started = useRef(false);
  const runRef = useRef(run);
  runRef.current = run;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    runRef
      .current()
      .then((ok) => {
        if (typeof ok === 'object') {
          setNotice(ok);
          setStatus('notice');
        } else setStatus(ok ? 'success' : 'failure');
      })
      .catch(() => setStatus('failure'));
  }, []);

  useEffect(() => {
    if (status !== 'success') return;
    const t = setTimeout(() => navigate('/', { replace: true }), redirectMs);
    return () => clearTimeout(t);
  }, [status, navigate, redirectMs]);

  return (
    <AuthLayout title={title}>
      <div className="status-screen" role="status" aria-live="polite">
        {status === 'pending' ? (
          <>
            <p>{waiting}</p>
            <Loading />
          </>
        ) : status === 'success' ? (
          <>
            <SlIcon name="check-circle" style={{ fontSize: '3rem', color: 'var(--sl-color-success-600)' }} />
            <h2>{success.title}</h2>
            {success.text ? <p>{success.text}</p> : null}
          </>
        ) : status === 'notice' && notice ? (
          <>
            <SlIcon name="info-circle" style={{ fontSize: '3rem', color: 'var(--sl-color-primary-600)' }} />
            <h2>{notice.title}</h2>
            <p>{notice.text}</p>
            {notice.action ?? null}
          </>
        ) : (
          <>
            <SlIcon name="exclamation-triangle" style={{ fontSize: '3rem', color: 'var(--sl-color-danger-600)' }} />
            <h2>{failure.title}</h2>
            <p>{failure.text}</p>
          </>
        )}
        {status !== 'pending' && !(status === 'notice' && notice?.action) ? (footer ?? null) : null}
      </div>
    </AuthLayout>
  );
}

export const ReturnToLogin = () => <Link to="/login">Return to Login</Link>;
