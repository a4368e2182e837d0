/** The route table (all exact), each screen its own lazily loaded chunk. */
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Loading } from '../ui/page.js';
import { PlayerRedirect, RequireAuth } from './guards.js';

const page = (load: () => Promise<{ default: ComponentType }>): LazyExoticComponent<ComponentType> => lazy(load);

const HomePage = page(() => import('../screens/tours/home-page.js'));
const LoginPage = page(() => import('../screens/auth/login-page.js'));
const SignupPage = page(() => import('../screens/auth/signup-page.js'));
const SignupGooglePage = page(() => import('../screens/auth/signup-google-page.js'));
const PasswordResetRequestPage = page(() => import('../screens/auth/password-reset-request-page.js'));
const PasswordResetPage = page(() => import('../screens/auth/password-reset-page.js'));
const AccountActivatePage = page(() => import('../screens/auth/account-activate-page.js'));
const TourReactivatePage = page(() => import('../screens/auth/tour-reactivate-page.js'));
const AccountPage = page(() => import('../screens/account/account-page.js'));
const SubscriptionsPage = page(() => import('../screens/billing/subscriptions-page.js'));
const TeamPage = page(() => import('../screens/team/team-page.js'));
const DevelopersPage = page(() => import('../screens/developers/developers-page.js'));
const ReportsPage = page(() => import('../screens/reports/reports-page.js'));
const LeadsPage = page(() => import('../screens/leads/leads-page.js'));
const TermsPage = page(() => import('../screens/legal/terms-page.js'));
const PrivacyPage = page(() => import('../screens/legal/privacy-page.js'));
const LicensesPage = page(() => import('../screens/legal/licenses-page.js'));
const NotFoundPage = page(() => import('../screens/not-found/not-found-page.js'));
// Screens of the tours document (Console part 2).
const UploadPage = page(() => import('../screens/upload/upload-page.js'));
const ShotsPage = page(() => import('../screens/shots/shots-page.js'));
const PlayerPage = page(() => import('../screens/player/player-page.js'));
const EmbeddedExamplePage = page(() => import('../screens/player/embedded-example-page.js'));
// Tour Analytics and the seller link: uPlot loads with these chunks only.
const AnalyticsPage = page(() => import('../screens/analytics/analytics-page.js'));
const SharedReportPage = page(() => import('../screens/analytics/shared-report-page.js'));

export function AppRoutes() {
  const priv = (C: ComponentType, role: 'USER' | 'ADMIN' = 'USER') => (
    <RequireAuth role={role}>
      <C />
    </RequireAuth>
  );
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/" element={priv(HomePage)} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/signup" element={<SignupPage />} />
        <Route path="/signup/google" element={<SignupGooglePage />} />
        <Route path="/password/reset/request" element={<PasswordResetRequestPage />} />
        <Route path="/password/reset" element={<PasswordResetPage />} />
        <Route path="/account/activate" element={<AccountActivatePage />} />
        <Route path="/tour/reactivate" element={priv(TourReactivatePage)} />
        <Route path="/account" element={priv(AccountPage)} />
        <Route path="/account/subscriptions" element={priv(SubscriptionsPage)} />
        <Route path="/team" element={priv(TeamPage, 'ADMIN')} />
        <Route path="/account/developers" element={priv(DevelopersPage, 'ADMIN')} />
        <Route path="/reports" element={priv(ReportsPage)} />
        <Route path="/leads" element={priv(LeadsPage)} />
        {/* Public in the route table; the account page itself needs a session, so a visitor logs in first. */}
        <Route path="/profile/success" element={priv(AccountPage)} />
        <Route path="/profile/cancel" element={priv(AccountPage)} />
        <Route path="/terms" element={<TermsPage />} />
        <Route path="/privacy" element={<PrivacyPage />} />
        <Route path="/licenses" element={<LicensesPage />} />
        <Route path="/tour/:tourId/shots" element={priv(ShotsPage)} />
        <Route path="/tour/:tourId/analytics" element={priv(AnalyticsPage)} />
        <Route path="/seller-report/:token" element={<SharedReportPage />} />
        <Route path="/upload" element={priv(UploadPage)} />
        <Route
          path="/previewplayer"
          element={
            <PlayerRedirect>
              <PlayerPage />
            </PlayerRedirect>
          }
        />
        <Route
          path="/editplayer"
          element={
            <PlayerRedirect>
              <PlayerPage />
            </PlayerRedirect>
          }
        />
        <Route path="/playerext" element={<PlayerPage />} />
        <Route path="/agentplayer" element={<PlayerPage />} />
        <Route path="/embedded_example" element={<EmbeddedExamplePage />} />
        <Route path="/embedded_example/:tourId" element={<EmbeddedExamplePage />} />
        <Route path="*" element={priv(NotFoundPage)} />
      </Routes>
    </Suspense>
  );
}
