/**
 * The figures a seller report shows: the same as the `tourAnalytics` query (the contract), for one tour
 * over a period. Read through the analytics service (services/reports/analytics.ts) so the console, the shared link
 * and the PDF always agree.
 */
export interface SellerFigures {
  visits: number;
  uniqueVisitors: number;
  averageSeconds: number;
  /** Share of visits that reached the end of the tour, 0–1. */
  completionRate: number;
  rooms: Array<{ name: string; seconds: number; visits: number }>;
  exits: Array<{ name: string; visits: number }>;
  daily: Array<{ date: string; visits: number }>;
}

/** What a report is about: the tour, whose it is, and the period [from, to). */
export interface SellerReportSubject {
  tourTitle: string;
  companyName: string;
  agentName: string;
  from: Date;
  to: Date;
  /** The audience link whose visits alone the report shows (absent: every visit of the tour). */
  audienceLinkLabel?: string;
}

/** Rooms by time spent, longest first (ties by name). */
export const roomsByTime = (f: SellerFigures) =>
  [...f.rooms].sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name));
/** Where visits ended, most first. */
export const exitsByCount = (f: SellerFigures) =>
  [...f.exits].sort((a, b) => b.visits - a.visits || a.name.localeCompare(b.name));

/** "Agent Name, Company": who sends the report; a one-person company named after its agent is said once. */
export const senderLine = (s: Pick<SellerReportSubject, 'agentName' | 'companyName'>) =>
  [...new Set([s.agentName.trim(), s.companyName.trim()].filter(Boolean))].join(', ');
