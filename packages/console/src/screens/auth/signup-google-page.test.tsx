/** /signup/google finishing a sign-in: the provider's code and state go to the server; a cancelled deletion is said. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { renderRoute, stubFetch, validToken } from '../../test/helpers.js';
import SignupGooglePage from './signup-google-page.js';

afterEach(() => vi.unstubAllGlobals());

const NOTICE = 'Your account deletion was cancelled because you signed in.';

describe('Google sign-in page', () => {
  it('says on screen when signing in cancelled the account deletion', async () => {
    const api = stubFetch({
      '/auth/google/user': () => ({
        body: { token: validToken(['free']), email: 'lerato@example.com', deletionCancelled: true },
      }),
    });
    vi.stubGlobal('fetch', api.impl);
    const { store } = renderRoute(<SignupGooglePage />, {
      path: '/signup/google',
      route: '/signup/google?code=c&state=s',
    });
    expect(await screen.findByText(NOTICE)).toBeInTheDocument();
    expect(store.getState()).toMatchObject({ authenticated: true });
    expect(api.calls[0]!.body).toMatchObject({ code: 'c', state: 's' });
  });

  it('says nothing of a deletion when none was cancelled', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({ '/auth/google/user': () => ({ body: { token: validToken(['free']), email: 'a@b.co' } }) }).impl,
    );
    const { store } = renderRoute(<SignupGooglePage />, {
      path: '/signup/google',
      route: '/signup/google?code=c&state=s',
    });
    await waitFor(() => expect(store.getState()).toMatchObject({ authenticated: true }));
    await waitFor(() => expect(screen.getByTestId('location')).not.toHaveTextContent('/signup/google'));
    expect(screen.queryByText(NOTICE)).toBeNull();
  });
});
