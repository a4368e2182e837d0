/** The shell's live notice, loaded (with its CSS and graphql-ws) only for a signed-in user. */
import { lazy, Suspense } from 'react';
import { useSession } from '../../session/session-context.js';

const LiveNotice = lazy(() => import('./live-notice.js'));

export function LiveNoticeSlot() {
  const { authenticated } = useSession();
  if (!authenticated) return null;
  return (
    <Suspense fallback={null}>
      <LiveNotice />
    </Suspense>
  );
}
