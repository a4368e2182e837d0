import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEV_TURNSTILE_TOKEN, ERROR_TEXTS, VALIDATION } from '@roomwalk/shared';
import SignupPage from './signup-page.js';
import { renderRoute, stubFetch, validToken } from '../../test/helpers.js';

afterEach(() => vi.unstubAllGlobals());

async function fill(user: ReturnType<typeof userEvent.setup>, password = 'Secret123') {
  await user.type(screen.getByLabelText('E-mail'), ' New@Agent.com ');
  await user.type(screen.getByLabelText('Firstname'), ' Thandi ');
  await user.type(screen.getByLabelText('Surname'), 'Nkosi');
  await user.type(screen.getByLabelText('Contact Number'), '0821234567');
  await user.type(screen.getByLabelText('Password'), password);
  await user.type(screen.getByLabelText('Re-enter password'), password);
  await user.click(screen.getByLabelText('Accept Terms & Conditions'));
}

describe('sign-up page', () => {
  it('reads inviteToken, rB and gToken, then removes them from the address', async () => {
    renderRoute(<SignupPage />, { path: '/signup', route: '/signup?inviteToken=inv-1&rB=ref-9&gToken=g&keep=1' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/signup\?keep=1$/));
  });

  it('shows each password rule and the terms message', async () => {
    const user = userEvent.setup();
    renderRoute(<SignupPage />, { path: '/signup', route: '/signup' });
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.tab();
    expect(await screen.findByText(VALIDATION.passwordMin)).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'ALLUPPER123');
    expect(await screen.findByText(VALIDATION.passwordLowercase)).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'alllower123');
    expect(await screen.findByText(VALIDATION.passwordUppercase)).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'NoDigitsHere');
    expect(await screen.findByText(VALIDATION.passwordNumber)).toBeInTheDocument();
    fireEvent.submit(screen.getByRole('form', { name: 'Sign up' }));
    expect(await screen.findByText(VALIDATION.acceptTerms)).toBeInTheDocument();
    expect(screen.getByText(VALIDATION.confirmPasswordRequired)).toBeInTheDocument();
    expect(screen.getByText(VALIDATION.surnameRequired)).toBeInTheDocument();
    expect(screen.getByText(VALIDATION.firstnameRequired)).toBeInTheDocument();
  });

  it('asks for matching passwords', async () => {
    const user = userEvent.setup();
    renderRoute(<SignupPage />, { path: '/signup', route: '/signup' });
    await fill(user);
    await user.clear(screen.getByLabelText('Re-enter password'));
    await user.type(screen.getByLabelText('Re-enter password'), 'Different1');
    fireEvent.submit(screen.getByRole('form', { name: 'Sign up' }));
    expect(await screen.findByText(VALIDATION.passwordsMatch)).toBeInTheDocument();
  });

  it('registers with the cleaned values and the invite, logs in and goes to /', async () => {
    const token = validToken(['free', 'admin']);
    const api = stubFetch({
      UserRegister: () => ({
        body: { data: { userRegister: { __typename: 'User', id: 'user_1', username: 'new@agent.com' } } },
      }),
      '/oauth/token': () => ({ body: { access_token: token } }),
    });
    vi.stubGlobal('fetch', api.impl);
    const user = userEvent.setup();
    const { store } = renderRoute(<SignupPage />, { path: '/signup', route: '/signup?inviteToken=inv-1&rB=ref-9' });
    await fill(user);
    fireEvent.submit(screen.getByRole('form', { name: 'Sign up' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    const register = api.calls.find(
      (c) => (c.body as { operationName?: string } | undefined)?.operationName === 'UserRegister',
    )!;
    expect((register.body as { variables: unknown }).variables).toEqual({
      input: {
        username: 'new@agent.com',
        password: 'Secret123',
        inviteToken: 'inv-1',
        referredBy: 'ref-9',
        name: 'Thandi',
        surname: 'Nkosi',
        contactNumber: '+27 821234567',
        turnstileToken: DEV_TURNSTILE_TOKEN,
        acceptedTerms: true,
      },
    });
    expect(store.getState().authenticated).toBe(true);
  });

  it("adds Forgot Password after 'Username already taken'", async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        UserRegister: () => ({
          body: { data: null, errors: [{ message: 'Username already taken', extensions: { code: 'USERNAME_TAKEN' } }] },
        }),
      }).impl,
    );
    const user = userEvent.setup();
    renderRoute(<SignupPage />, { path: '/signup', route: '/signup' });
    await fill(user);
    fireEvent.submit(screen.getByRole('form', { name: 'Sign up' }));
    expect(await screen.findByText(ERROR_TEXTS.usernameTaken)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot Password' })).toHaveAttribute('href', '/password/reset/request');
  });

  it('says plainly when the server has not built sign-up yet', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        UserRegister: () => ({
          body: {
            data: null,
            errors: [{ message: ERROR_TEXTS.notAvailableYet, extensions: { code: 'NOT_AVAILABLE_YET' } }],
          },
        }),
      }).impl,
    );
    const user = userEvent.setup();
    renderRoute(<SignupPage />, { path: '/signup', route: '/signup' });
    await fill(user);
    fireEvent.submit(screen.getByRole('form', { name: 'Sign up' }));
    expect(await screen.findByText(ERROR_TEXTS.notAvailableYet)).toBeInTheDocument();
  });
});
