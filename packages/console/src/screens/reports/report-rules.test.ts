import { describe, expect, it } from 'vitest';
import { ROLES } from '@roomwalk/shared';
import { mayDownloadReports } from './report-rules.js';

describe('mayDownloadReports', () => {
  it("lets an admin (by role or as the company's admin) download, and no member", () => {
    expect(mayDownloadReports([ROLES.admin], false)).toBe(true);
    expect(mayDownloadReports([ROLES.superadmin], undefined)).toBe(true);
    expect(mayDownloadReports([ROLES.basic], true)).toBe(true);
    expect(mayDownloadReports([ROLES.basic], false)).toBe(false);
    expect(mayDownloadReports(null, undefined)).toBe(false);
  });
});
