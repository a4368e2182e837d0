import { describe, expect, it } from 'vitest';
import { ATTRIBUTES } from '../constants.js';
import { type ConfigSource, playerConfig } from './player-context.js';

describe('playerConfig', () => {
  const element = () =>
    ({
      ...Object.fromEntries(Object.values(ATTRIBUTES).map((name) => [name, `${name}-value`])),
      tourId: 'tour_1',
      mode: 'external',
      authToken: undefined,
      hiRes: true,
      liveViewing: false,
      liveSession: '',
      hostEvents: false,
      allowedOrigins: ' https://a.example, https://b.example  https://c.example ',
      startRoom: '',
      startFrame: undefined,
      loading: 'lazy',
      loadingTimeoutMs: 20_000,
      unbranded: false,
    }) as Record<string, unknown>;

  it('reads every attribute (ATTRIBUTES) and the two properties without one through to the element, as they are now', () => {
    const el = element();
    const config = playerConfig(el as unknown as ConfigSource, () => 'https://api.example') as unknown as Record<
      string,
      unknown
    >;
    for (const name of [...Object.values(ATTRIBUTES), 'authToken', 'loadingTimeoutMs']) {
      expect(config[name], name).toBe(el[name]);
      el[name] = `${name}-changed`;
      expect(config[name], `${name} after a change`).toBe(`${name}-changed`);
    }
  });

  it('derives the server base, host messages and the allowed origins list', () => {
    const el = element();
    let base = 'https://one.example';
    const config = playerConfig(el as unknown as ConfigSource, () => base);
    expect(config.apiBase).toBe('https://one.example');
    base = 'https://two.example';
    expect(config.apiBase).toBe('https://two.example');
    expect(config.allowedOriginList).toEqual(['https://a.example', 'https://b.example', 'https://c.example']);
    expect(config.hostMessagesEnabled).toBe(false);
    el.liveViewing = true;
    expect(config.hostMessagesEnabled).toBe(true);
    el.liveViewing = false;
    el.hostEvents = true;
    expect(config.hostMessagesEnabled).toBe(true);
  });
});
