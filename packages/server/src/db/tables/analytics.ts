/**
 * Visits (view_events, migration 0030, rooms from 0140) and their daily rollups (migrations 0140, 0141, 0160, 0164).
 */
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './columns.js';

interface ViewEventsTable {
  id: Generated<string>;
  tour_id: string;
  company_id: string;
  visitor_id: string;
  started_at: Timestamp;
  last_seen_at: Timestamp;
  seconds_spent: Generated<number>;
  rooms_reached: Generated<number>;
  /** Rooms of the visit in the order first entered, with seconds ('' = before the first marker); migration 0140. */
  rooms: ColumnType<Array<{ name: string; seconds: number }>, string | undefined, string>;
  exit_room: string | null;
  reached_end: Generated<boolean>;
  fast_travels: Generated<number>;
  device: 'phone' | 'tablet' | 'desktop' | null;
  /** The audience link the visit came through (migration 0200), null for the tour's own links. */
  audience_link_id: ColumnType<string | null, string | null | undefined, string | null>;
}

type Day = ColumnType<string, string, string>;

interface TourVisitDailyTable {
  tour_id: string;
  day: Day;
  visits: number;
  /** Distinct visitors of the day (added by 0164). */
  visitors: ColumnType<number, number | undefined, number>;
  seconds: ColumnType<string | number, number | string, number | string>;
  completed: number;
  fast_travels: number;
  phone: number;
  tablet: number;
  desktop: number;
}

interface TourRoomDailyTable {
  tour_id: string;
  day: Day;
  room: string;
  seconds: ColumnType<string | number, number | string, number | string>;
  visits: number;
  exits: number;
}

interface TourVisitorsTable {
  tour_id: string;
  visitor_id: string;
  first_day: Day;
  last_day: Day;
}

interface AnalyticsRollupStateTable {
  id: number;
  rolled_through: Day;
  /** Added by 0160: tour_visitors holds every visit that started before this moment. */
  visitors_through: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

interface TourVisitorLastDaysTable {
  tour_id: string;
  day: string;
  visitors: number;
}

export type AnalyticsTables = {
  view_events: ViewEventsTable;
  tour_visit_daily: TourVisitDailyTable;
  tour_room_daily: TourRoomDailyTable;
  tour_visitors: TourVisitorsTable;
  analytics_rollup_state: AnalyticsRollupStateTable;
  tour_visitor_last_days: TourVisitorLastDaysTable;
};
