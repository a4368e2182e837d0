import { describe, expect, it } from 'vitest';
import { ROLES } from '@roomwalk/shared';
import {
  POLL_WINDOW_MS,
  WEBHOOK_EVENTS,
  apiKeySchema,
  deliveryStatusChip,
  developerAccess,
  endpointSchema,
  eventLabel,
  serverField,
  shouldPoll,
  wireEventName,
} from './developer-rules.js';

describe('event labels', () => {
  it('names every event readably, by GraphQL name and by the type a delivery carries', () => {
    expect(eventLabel('TOUR_PROCESSED')).toBe('Tour processed');
    expect(eventLabel('tour.processed')).toBe('Tour processed');
    expect(eventLabel('MARKERS_AI_COMPLETED')).toBe('AI markers completed');
    expect(eventLabel('markers.ai_completed')).toBe('AI markers completed');
    expect(eventLabel('webhook.test')).toBe('Test event');
    for (const e of WEBHOOK_EVENTS) {
      expect(eventLabel(e)).not.toMatch(/_/);
      expect(eventLabel(wireEventName(e))).toBe(eventLabel(e));
    }
  });
  it('maps GraphQL names to the wire names of docs/api.md', () => {
    expect(WEBHOOK_EVENTS.map(wireEventName)).toEqual([
      'tour.processed',
      'tour.failed',
      'tour.deleted',
      'lead.created',
      'reel.created',
      'reel.failed',
      'shots.completed',
      'markers.ai_completed',
    ]);
  });
  it('shows an unknown type as it came', () => {
    expect(eventLabel('tour.renamed')).toBe('tour.renamed');
  });
});

describe('delivery status chips', () => {
  it('say the status in words, each with its own icon', () => {
    expect(deliveryStatusChip('SUCCEEDED')).toEqual({ text: 'Succeeded', variant: 'success', icon: 'check-circle' });
    expect(deliveryStatusChip('FAILED')).toEqual({ text: 'Failed', variant: 'danger', icon: 'exclamation-octagon' });
    expect(deliveryStatusChip('PENDING').text).toBe('Pending');
    expect(deliveryStatusChip('PENDING', '2026-11-26T10:00:00Z').text).toBe('Retry scheduled');
  });
});

describe('who sees the page', () => {
  it('lets admins of Pro and Offline License companies in', () => {
    expect(developerAccess([ROLES.pro, ROLES.admin], { isAdmin: true, planName: 'Pro' })).toBe('allowed');
    expect(developerAccess([ROLES.offlicenselicense], { isAdmin: true, planName: 'Offline License' })).toBe('allowed');
  });
  it('shows the plan gate below Pro, to admins and members alike', () => {
    expect(developerAccess([ROLES.basic, ROLES.admin], { isAdmin: true, planName: 'Basic' })).toBe('plan');
    expect(developerAccess([ROLES.free], { isAdmin: false, planName: 'Free Trial' })).toBe('plan');
  });
  it('reads the licence before the token: an upgrade the token does not know yet, a downgrade it still carries', () => {
    expect(developerAccess([ROLES.basic, ROLES.admin], { isAdmin: true, planName: 'Pro' })).toBe('allowed');
    expect(developerAccess([ROLES.pro, ROLES.admin], { isAdmin: true, planName: 'Basic' })).toBe('plan');
    expect(developerAccess([ROLES.pro, ROLES.admin], { isAdmin: true, planName: null })).toBe('allowed');
  });
  it('tells a member of a Pro company that admins manage it', () => {
    expect(developerAccess([ROLES.pro], { isAdmin: false, planName: 'Pro' })).toBe('admin');
  });
});

describe('form validation', () => {
  it('needs a key name of at most 100 characters', () => {
    expect(apiKeySchema.safeParse({ name: '  ' }).error?.issues[0]?.message).toBe(
      'Give the key a name, for example the system that will use it.',
    );
    expect(apiKeySchema.safeParse({ name: 'x'.repeat(101) }).success).toBe(false);
    expect(apiKeySchema.parse({ name: ' CRM ' })).toEqual({ name: 'CRM' });
  });
  it('needs a full http(s) URL and at least one event', () => {
    const ok = { url: 'https://crm.example.com/hooks', description: '', events: ['TOUR_PROCESSED'] };
    expect(endpointSchema.parse(ok).events).toEqual(['TOUR_PROCESSED']);
    const issue = (v: object) => endpointSchema.safeParse({ ...ok, ...v }).error?.issues[0];
    expect(issue({ url: 'crm.example.com/hooks' })).toMatchObject({
      path: ['url'],
      message: 'Enter a full URL starting with https://.',
    });
    expect(issue({ url: 'ftp://crm.example.com' })?.path).toEqual(['url']);
    expect(issue({ url: '' })?.message).toBe('Enter the URL Roomwalk should post events to.');
    expect(issue({ events: [] })).toMatchObject({
      path: ['events'],
      message: 'Choose at least one event to send to this endpoint.',
    });
    // What the form gives for no box checked (false) and for one (a string).
    expect(issue({ events: false })?.path).toEqual(['events']);
    expect(endpointSchema.parse({ ...ok, events: 'LEAD_CREATED' }).events).toEqual(['LEAD_CREATED']);
    expect(issue({ events: ['TOUR_RENAMED'] })?.path?.[0]).toBe('events');
    expect(issue({ description: 'x'.repeat(301) })?.path).toEqual(['description']);
  });
  it('puts a BAD_USER_INPUT error under the field the server names', () => {
    const err = (extensions: Record<string, unknown>) => ({
      graphQLErrors: [{ message: 'Loopback addresses are refused.', extensions }],
    });
    expect(serverField(err({ code: 'BAD_USER_INPUT', field: 'url' }), ['url', 'events'])).toEqual({
      field: 'url',
      message: 'Loopback addresses are refused.',
    });
    expect(serverField(err({ code: 'BAD_USER_INPUT', field: 'name' }), ['url', 'events'])).toBeNull();
    expect(serverField(err({ code: 'PLAN_REQUIRED' }), ['url'])).toBeNull();
    expect(serverField(null, ['url'])).toBeNull();
  });
});

describe('delivery log polling', () => {
  const now = Date.parse('2026-11-26T10:00:00Z');
  it('polls while a delivery is in flight, shortly after an action', () => {
    expect(shouldPoll([{ status: 'PENDING', nextRetryAt: null }], now, now - 1000)).toBe(true);
    expect(shouldPoll([{ status: 'SUCCEEDED' }, { status: 'FAILED' }], now, now)).toBe(false);
    expect(shouldPoll([], now, now)).toBe(false);
  });
  it('does not poll for a retry hours away, nor long after the last action', () => {
    expect(shouldPoll([{ status: 'PENDING', nextRetryAt: '2026-11-26T12:00:00Z' }], now, now)).toBe(false);
    expect(shouldPoll([{ status: 'PENDING', nextRetryAt: '2026-11-26T10:00:05Z' }], now, now)).toBe(true);
    expect(shouldPoll([{ status: 'PENDING', nextRetryAt: null }], now, now - POLL_WINDOW_MS - 1)).toBe(false);
  });
});
