/**
 * The console shell: session, API client, snackbars, routes, and the Feedback button and cookie banner on every screen.
 */
import { BrowserRouter } from 'react-router-dom';
import type { ReactNode } from 'react';
import { SessionProvider } from './session/session-context.js';
import type { SessionStore } from './session/session-store.js';
import { SnackbarProvider } from './ui/snackbar.js';
import { CookieBanner } from './ui/cookie-banner.js';
import { FeedbackButton } from './ui/feedback-button.js';
import { AppRoutes } from './routes/app-routes.js';
import { useAndroidDoubleBack } from './state/android-back.js';
import { LiveNoticeSlot } from './screens/live/index.js';
import { OriginalFollowsNotice } from './screens/upload/original-follows-notice.js';

function Chrome({ children }: { children: ReactNode }) {
  useAndroidDoubleBack();
  return (
    <>
      {/* In the flow above the page (sticky), so a live-lead notice never lies over the header's Add and Account. */}
      <LiveNoticeSlot />
      {children}
      {/* While the original of a converted tour is still going up: on every screen, over dialogs. */}
      <OriginalFollowsNotice />
      {/* One fixed dock, so the Feedback button always sits above the cookie banner. */}
      <div className="bottom-dock">
        <FeedbackButton />
        <CookieBanner />
      </div>
    </>
  );
}

export function App({ store }: { store: SessionStore }) {
  return (
    <SessionProvider store={store}>
      <SnackbarProvider>
        <BrowserRouter>
          <Chrome>
            <AppRoutes />
          </Chrome>
        </BrowserRouter>
      </SnackbarProvider>
    </SessionProvider>
  );
}
