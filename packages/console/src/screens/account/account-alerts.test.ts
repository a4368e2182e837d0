import { describe, expect, it } from 'vitest';
import { alertsFor, RESEND_LABELS } from './account-alerts.js';

describe('account alerts', () => {
  const license = { quantity: 5, monthlyActiveTours: 5, uploadLimit: 10, monthlyUploadedTours: 3 };
  it('account alerts follow activation and the quota math', () => {
    expect(alertsFor({ activated: false, license })).toEqual({
      notActivated: true,
      noActiveTours: true,
      noUploads: false,
    });
    expect(alertsFor({ activated: true, license: null })).toMatchObject({ notActivated: true });
    expect(
      alertsFor({ activated: true, license: { ...license, monthlyActiveTours: 1, monthlyUploadedTours: 10 } }),
    ).toEqual({
      notActivated: false,
      noActiveTours: false,
      noUploads: true,
    });
    expect(Object.values(RESEND_LABELS)).toEqual([
      'Re-send activation email',
      'Sending activation email...',
      'Activation email sent',
      'Failed to send activation email',
    ]);
  });
});
