/**
 * Privacy-strict visitors: in a cross-site iframe with third-party storage blocked, reading
 * window.localStorage / sessionStorage throws a SecurityError. The console's stores start and work from memory.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionStore } from '../session/session-store.js';
import { createTutorialStore } from './tutorial-store.js';
import { readConsent } from './cookie-consent.js';
import { readSignupParams } from '../screens/auth/signup-params.js';
import { validToken } from '../test/helpers.js';

const denied = () =>
  new DOMException(
    "Failed to read the 'localStorage' property from 'Window': Access is denied for this document.",
    'SecurityError',
  );

describe('storage blocked (SecurityError)', () => {
  const saved = {
    local: Object.getOwnPropertyDescriptor(window, 'localStorage')!,
    session: Object.getOwnPropertyDescriptor(window, 'sessionStorage')!,
  };
  beforeEach(() => {
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get: () => {
        throw denied();
      },
    });
    Object.defineProperty(window, 'sessionStorage', {
      configurable: true,
      get: () => {
        throw denied();
      },
    });
  });
  afterEach(() => {
    Object.defineProperty(window, 'localStorage', saved.local);
    Object.defineProperty(window, 'sessionStorage', saved.session);
  });

  it('the session, tutorial, cookie choice and sign-up params work in memory', () => {
    expect(() => window.localStorage).toThrow();
    const session = createSessionStore({ log: () => undefined });
    const token = validToken(['basic']);
    expect(session.login(token, 'roomwalk')).toBe(true);
    expect(session.getState()).toMatchObject({ authenticated: true, token });
    expect(session.prevLoginMethod()).toBe('roomwalk');
    session.dispose();

    const tutorial = createTutorialStore();
    tutorial.complete();
    expect(tutorial.getState()).toEqual({ firstView: false, available: true });

    expect(readConsent('')).toBe('pending');
    expect(readConsent('?disableCookies=true')).toBe('declined');
    expect(readSignupParams('?rB=agent-7').referredBy).toBe('agent-7');
  });
});
