/**
 * Row types of every table, for Kysely: the one `Database` type. The accounts, tours and processing tables are here;
 * each other domain's are in ./tables/<domain>.ts, combined below. Migrations in ./migrations create them.
 */
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { AiTables } from './tables/ai.js';
import type { AnalyticsTables } from './tables/analytics.js';
import type { AudienceLinkTables } from './tables/audience-links.js';
import type { BillingTables } from './tables/billing.js';
import type { NullableTimestamp, Json, Timestamp } from './tables/columns.js';
import type { DeveloperTables } from './tables/developer.js';
import type { LiveTables } from './tables/live.js';
import type { PersonalDataTables } from './tables/personal-data.js';
import type { SellerReportTables } from './tables/seller-reports.js';

interface CompaniesTable {
  id: Generated<string>;
  name: string;
  address: string | null;
  vat_no: string | null;
  country_code: Generated<string>;
  referred_by: string | null;
  logo_key: string | null;
  /** Custom Company Branding accent (#rrggbb), shown only while the plan has the feature. */
  accent_color: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

interface UsersTable {
  id: Generated<string>;
  username: string;
  password_hash: string | null;
  company_id: string;
  role: Generated<'ADMIN' | 'USER'>;
  is_superadmin: Generated<boolean>;
  activated_at: NullableTimestamp;
  oidc_issuer: string | null;
  oidc_subject: string | null;
  created_at: Timestamp;
  /** When signing in last cancelled this account's deletion (migration 0245); null when none was. */
  deletion_cancelled_at: NullableTimestamp;
}

interface UserProfilesTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  surname: string;
  contact_number: string | null;
  profile_image_key: string | null;
}

interface LicensesTable {
  id: Generated<string>;
  company_id: string;
  plan_id: string;
  plan_name: string;
  subscription_id: string | null;
  quantity: number;
  upload_limit: number;
  start_date: Timestamp;
  end_date: NullableTimestamp;
  period_start: Timestamp;
  created_at: Timestamp;
}

interface TeamInvitesTable {
  id: Generated<string>;
  company_id: string;
  email: string;
  token_hash: string;
  accepted: Generated<boolean>;
  accepted_user_id: string | null;
  invited_by: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
}

interface OneTimeTokensTable {
  id: Generated<string>;
  user_id: string;
  purpose: 'activation' | 'reset';
  token_hash: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface VideoInfoJson {
  width: number;
  height: number;
  fullSize: number;
  mediumSize: number;
  smallSize: number;
}

/** Exported for migration 0020, which adds its processing columns by declaration merging. @public */
export interface ToursTable {
  id: Generated<string>;
  company_id: string;
  owner_id: string;
  title: string | null;
  description: string | null;
  listing_link: string | null;
  video_key: string | null;
  thumbnail_key: string | null;
  intro_logo_key: string | null;
  status: string;
  progress: Generated<number>;
  progress_text: string | null;
  views: Generated<number>;
  deactivated_views: Generated<number>;
  /** The processing attempt that last claimed the tour; its files are under tours/<id>/v<n>/ (migration 0020). */
  processing_attempt: Generated<number>;
  /** The attempt whose clips are live (migration 0020). */
  clips_version: number | null;
  video_info: Json<VideoInfoJson | null> | null;
  fps: number | null;
  /** Privacy: blur faces in clips, reels and photos (migration 0060). */
  blur_faces: Generated<boolean>;
  /** The owner's live viewing switch: shared links carry liveViewing=true (migration 0180). */
  live_viewing: Generated<boolean>;
  /** Who sees the tour: 'PUBLIC' (default), 'PASSWORD' or 'COMPANY' (migration 0190, services/tour-access/). */
  access: Generated<'PUBLIC' | 'PASSWORD' | 'COMPANY'>;
  /** argon2id hash of the tour password (PASSWORD tours). */
  access_password_hash: string | null;
  /** Counts access changes: grants and signed media URLs of an older version are refused. */
  access_version: Generated<number>;
  /**
   * Lead gate (migration 0205, services/lead-gate/): the room before which the lead form is asked, or the seconds after
   * which; never both.
   */
  lead_gate_marker_id: string | null;
  lead_gate_seconds: number | null;
  /** The visitor waits for the agent's approval after the form (else goes on at once). */
  lead_gate_approval: Generated<boolean>;
  /** The original that followed a converted upload, under a random key (migration 0225, services/photo-source.ts). */
  photo_source_key: string | null;
  /** Search engines may show the tour (migration 0240): its share page is indexable and in /sitemap.xml. */
  listed: Generated<boolean>;
  /** The 1200x630 link preview picture (migration 0240, jobs/share-preview-job.ts); NULL until made. */
  share_image_key: string | null;
  deactivated_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface TourLogsTable {
  id: Generated<string>;
  tour_id: string;
  status: string;
  error: string | null;
  created_at: Timestamp;
}

interface ClipsTable {
  id: Generated<string>;
  tour_id: string;
  index: number;
  frame_count: number;
  duration: number;
  high_key: string;
  low_key: string;
  /** Frames with a face blurred (migration 0090). */
  blurred_frames: Generated<number>;
}

interface MarkersTable {
  id: Generated<string>;
  tour_id: string;
  name: string;
  description: Generated<string>;
  scroll_position: Generated<number>;
  frame_index: number;
  is_fast_travel: Generated<boolean>;
  source: Generated<'USER' | 'AI'>;
  created_at: Timestamp;
}

interface UploadsTable {
  id: Generated<string>;
  key: string;
  company_id: string;
  user_id: string;
  extension: string;
  size: number | null;
  tour_id: string | null;
  created_at: Timestamp;
  submitted_at: NullableTimestamp;
  /** Multipart uploads (0100): S3's UploadId or the local store's; null for a single-PUT upload. */
  multipart_id: ColumnType<string | null, string | null | undefined, string | null>;
  expected_size: ColumnType<number | null, number | null | undefined, number | null>;
  part_size: ColumnType<number | null, number | null | undefined, number | null>;
  fingerprint: ColumnType<string | null, string | null | undefined, string | null>;
  completed_at: NullableTimestamp;
  /** 0215: expected_size is the announced limit; the real size comes with completion (a device-converted video). */
  size_at_end: ColumnType<boolean, boolean | undefined, boolean>;
}

interface FeedbackTable {
  id: Generated<string>;
  user_id: string | null;
  name: string;
  email: string;
  comment: string;
  created_at: Timestamp;
}

interface MailOutboxTable {
  id: Generated<string>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  links: Json<string[]>;
  created_at: Timestamp;
}

interface MailOutboxAttachmentsTable {
  mail_id: string;
  position: number;
  filename: string;
  content_type: string;
  content: Buffer;
}

/** Leases on work that must not run twice at once (migration 0185, jobs/queue.ts). */
interface JobLeasesTable {
  key: string;
  holder: string;
  expires_at: Date;
}

/** What a finished segment stored: its clips (global index, frames, keys, sizes) and, for the first, the thumbnail. */
export interface SegmentResultJson {
  clips: Array<{
    index: number;
    frameCount: number;
    highKey: string;
    lowKey: string;
    highSize: number;
    lowSize: number;
    blurredFrames: number;
  }>;
  thumbnail: { key: string; size: number } | null;
  width: number;
  height: number;
  fps: number;
  /** host:pid of the worker that made the segment (logs, and the two-worker test). */
  worker: string;
}

/** One segment of a processing attempt (migration 0130, jobs/process-tour-segments.ts). */
interface TourSegmentsTable {
  tour_id: string;
  attempt: number;
  index: number;
  first_frame: number;
  end_frame: number | null;
  progress: Generated<number>;
  result: ColumnType<SegmentResultJson | null, string | null | undefined, string | null>;
  done_at: NullableTimestamp;
}

export interface Database
  extends AiTables,
    AnalyticsTables,
    AudienceLinkTables,
    BillingTables,
    DeveloperTables,
    LiveTables,
    PersonalDataTables,
    SellerReportTables {
  companies: CompaniesTable;
  users: UsersTable;
  user_profiles: UserProfilesTable;
  licenses: LicensesTable;
  team_invites: TeamInvitesTable;
  one_time_tokens: OneTimeTokensTable;
  tours: ToursTable;
  tour_logs: TourLogsTable;
  clips: ClipsTable;
  markers: MarkersTable;
  uploads: UploadsTable;
  feedback: FeedbackTable;
  mail_outbox: MailOutboxTable;
  mail_outbox_attachments: MailOutboxAttachmentsTable;
  job_leases: JobLeasesTable;
  tour_segments: TourSegmentsTable;
}

export type UserRow = Selectable<UsersTable>;
export type CompanyRow = Selectable<CompaniesTable>;
export type ProfileRow = Selectable<UserProfilesTable>;
export type LicenseRow = Selectable<LicensesTable>;
export type InviteRow = Selectable<TeamInvitesTable>;
export type TourRow = Selectable<ToursTable>;
export type ClipRow = Selectable<ClipsTable>;
export type MarkerRow = Selectable<MarkersTable>;
