import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ERROR_TEXTS, OAUTH_CLIENT, VALIDATION } from '@roomwalk/shared';
import LoginPage from './login-page.js';
import { renderRoute, stubFetch, validToken } from '../../test/helpers.js';
import { resetGoogleStatus } from '../../ui/google-button.js';

afterEach(() => vi.unstubAllGlobals());

describe('login page', () => {
  it('shows the required messages only after a submit attempt', async () => {
    renderRoute(<LoginPage />, { path: '/login', route: '/login' });
    expect(screen.queryByText(VALIDATION.passwordRequired)).not.toBeInTheDocument();
    fireEvent.submit(screen.getByRole('form', { name: 'Log in' }));
    expect(await screen.findByText(VALIDATION.emailRequired)).toBeInTheDocument();
    expect(screen.getByText(VALIDATION.passwordRequired)).toBeInTheDocument();
  });

  it('shows an invalid email once the field was touched', async () => {
    const user = userEvent.setup();
    renderRoute(<LoginPage />, { path: '/login', route: '/login' });
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.tab();
    expect(await screen.findByText(VALIDATION.emailInvalid)).toBeInTheDocument();
  });

  it('logs in with a lower-cased, trimmed email and returns to the remembered page', async () => {
    const token = validToken(['free']);
    const api = stubFetch({ '/oauth/token': () => ({ body: { access_token: token } }) });
    vi.stubGlobal('fetch', api.impl);
    const user = userEvent.setup();
    const { store } = renderRoute(<LoginPage />, {
      path: '/login',
      route: '/login',
      state: { from: { pathname: '/team', search: '', hash: '' } },
    });
    await user.type(screen.getByLabelText('Email'), '  Agent@Example.COM ');
    await user.type(screen.getByLabelText('Password'), 'Secret123');
    fireEvent.submit(screen.getByRole('form', { name: 'Log in' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/team'));
    const call = api.calls.find((c) => c.url.endsWith('/oauth/token'))!;
    expect(call.body).toEqual({ username: 'agent@example.com', password: 'Secret123', grant_type: 'password' });
    expect(call.headers.get('Authorization')).toBe(`Basic ${btoa(`${OAUTH_CLIENT.id}:${OAUTH_CLIENT.secret}`)}`);
    expect(store.getState()).toMatchObject({ authenticated: true, token });
    expect(store.prevLoginMethod()).toBe('roomwalk');
  });

  it('says on screen when signing in cancelled the account deletion, and nothing otherwise', async () => {
    const token = validToken(['free']);
    let cancelled = true;
    const api = stubFetch({
      '/oauth/token': () => ({ body: { access_token: token, ...(cancelled ? { deletion_cancelled: true } : {}) } }),
    });
    vi.stubGlobal('fetch', api.impl);
    const user = userEvent.setup();
    const first = renderRoute(<LoginPage />, { path: '/login', route: '/login' });
    await user.type(screen.getByLabelText('Email'), 'agent@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret123');
    fireEvent.submit(screen.getByRole('form', { name: 'Log in' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/'));
    expect(await screen.findByText('Your account deletion was cancelled because you signed in.')).toBeInTheDocument();
    first.unmount();

    cancelled = false;
    renderRoute(<LoginPage />, { path: '/login', route: '/login' });
    await user.type(screen.getByLabelText('Email'), 'agent@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret123');
    fireEvent.submit(screen.getByRole('form', { name: 'Log in' }));
    await waitFor(() => expect(api.calls).toHaveLength(2));
    await waitFor(() => expect(screen.getByTestId('location')).not.toHaveTextContent('/login'));
    expect(screen.queryByText('Your account deletion was cancelled because you signed in.')).toBeNull();
  });

  it('shows the server message of a 401 in the failure dialog', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({ '/oauth/token': () => ({ status: 401, body: { message: 'Wrong password, try again' } }) }).impl,
    );
    const user = userEvent.setup();
    renderRoute(<LoginPage />, { path: '/login', route: '/login' });
    await user.type(screen.getByLabelText('Email'), 'a@b.co');
    await user.type(screen.getByLabelText('Password'), 'x');
    fireEvent.submit(screen.getByRole('form', { name: 'Log in' }));
    expect(await screen.findByText('Wrong password, try again')).toBeInTheDocument();
  });

  it('rejects a token without roles with the default failure text', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/oauth/token': () => ({ body: { access_token: 'a.b.c' } }) }).impl);
    const user = userEvent.setup();
    const { store } = renderRoute(<LoginPage />, { path: '/login', route: '/login' });
    await user.type(screen.getByLabelText('Email'), 'a@b.co');
    await user.type(screen.getByLabelText('Password'), 'x');
    fireEvent.submit(screen.getByRole('form', { name: 'Log in' }));
    expect(await screen.findByText(ERROR_TEXTS.loginFailed)).toBeInTheDocument();
    expect(store.getState().authenticated).toBe(false);
  });

  it('puts the Used Last badge beside the previous method', async () => {
    resetGoogleStatus();
    vi.stubGlobal('fetch', stubFetch({ '/auth/google/status': () => ({ body: { configured: true } }) }).impl);
    localStorage.setItem('prevLoginMethod', 'google');
    renderRoute(<LoginPage />, { path: '/login', route: '/login' });
    const badge = await screen.findByText('Used Last');
    expect(badge.closest('.method')).toHaveTextContent('Log in with Google');
  });

  it('shows no Google button when Google sign-in is not configured', async () => {
    resetGoogleStatus();
    const api = stubFetch({ '/auth/google/status': () => ({ body: { configured: false } }) });
    vi.stubGlobal('fetch', api.impl);
    renderRoute(<LoginPage />, { path: '/login', route: '/login' });
    await waitFor(() => expect(api.calls.some((c) => c.url.endsWith('/auth/google/status'))).toBe(true));
    await act(async () => undefined);
    expect(screen.queryByText('Log in with Google')).toBeNull();
    expect(screen.queryByRole('separator')).toBeNull();
  });
});
