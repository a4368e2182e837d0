/** The reports screen's rules: which reports there are, and who may download them. */
import { isAdmin, type REPORT_FORMATS } from '@roomwalk/shared';

export const REPORTS = [
  {
    id: 'tourByCompany',
    title: 'Tours By Company',
    description: 'Every tour of your company with its owner, status and views.',
  },
  {
    id: 'summaryByUser',
    title: 'User Summary',
    description: 'Per team member: active and uploaded tours this month, and views.',
  },
] as const;
export type ReportId = (typeof REPORTS)[number]['id'];
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Reports are for company admins (the server refuses others): members see why, not a dialog that just closes. */
export const mayDownloadReports = (
  roles: readonly string[] | null | undefined,
  companyAdmin: boolean | undefined,
): boolean => isAdmin(roles) || !!companyAdmin;
