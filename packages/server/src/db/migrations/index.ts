/** Every migration, in order. Add new ones with the next number; never edit a landed one. */
import type { Migration } from 'kysely';
import * as m0001 from './0001-accounts-and-tours.js';
import * as m0010 from './0010-session-revocation.js';
import * as m0020 from './0020-tour-processing.js';
import * as m0030 from './0030-billing-and-analytics.js';
import * as m0040 from './0040-live-viewing.js';
import * as m0050 from './0050-reels-shots-ai.js';
import * as m0060 from './0060-privacy-blur-faces.js';
import * as m0072 from './0072-company-accent-colour.js';
import * as m0085 from './0085-public-tour-changes.js';
import * as m0090 from './0090-clip-blurred-frames.js';
import * as m0100 from './0100-multipart-uploads.js';
import * as m0120 from './0120-developer-platform.js';
import * as m0130 from './0130-tour-segments.js';
import * as m0140 from './0140-room-analytics.js';
import * as m0141 from './0141-room-analytics-visitor-days.js';
import * as m0150 from './0150-seller-reports.js';
import * as m0160 from './0160-room-analytics-visitor-watermark.js';
import * as m0161 from './0161-seller-digest-sent-to.js';
import * as m0162 from './0162-dev-outbox-attachments.js';
import * as m0163 from './0163-seller-digest-time-zone.js';
import * as m0164 from './0164-room-analytics-daily-visitors.js';
import * as m0180 from './0180-tour-live-viewing.js';
import * as m0185 from './0185-job-leases.js';
import * as m0190 from './0190-tour-access.js';
import * as m0200 from './0200-audience-links.js';
import * as m0205 from './0205-lead-gate.js';
import * as m0206 from './0206-audience-link-lead-gate.js';
import * as m0210 from './0210-personal-data.js';
import * as m0215 from './0215-multipart-size-at-end.js';
import * as m0220 from './0220-lead-gate-link.js';
import * as m0225 from './0225-photo-source-key.js';
import * as m0232 from './0232-lead-gate-pass-version.js';
import * as m0240 from './0240-tour-sharing.js';
import * as m0245 from './0245-deletion-cancelled.js';

export const migrations: Record<string, Migration> = {
  '0001-accounts-and-tours': m0001,
  '0010-session-revocation': m0010,
  '0020-tour-processing': m0020,
  '0030-billing-and-analytics': m0030,
  '0040-live-viewing': m0040,
  '0050-reels-shots-ai': m0050,
  '0060-privacy-blur-faces': m0060,
  '0072-company-accent-colour': m0072,
  '0085-public-tour-changes': m0085,
  '0090-clip-blurred-frames': m0090,
  '0100-multipart-uploads': m0100,
  '0120-developer-platform': m0120,
  '0130-tour-segments': m0130,
  '0140-room-analytics': m0140,
  '0141-room-analytics-visitor-days': m0141,
  '0150-seller-reports': m0150,
  '0160-room-analytics-visitor-watermark': m0160,
  '0161-seller-digest-sent-to': m0161,
  '0162-dev-outbox-attachments': m0162,
  '0163-seller-digest-time-zone': m0163,
  '0164-room-analytics-daily-visitors': m0164,
  '0180-tour-live-viewing': m0180,
  '0185-job-leases': m0185,
  '0190-tour-access': m0190,
  '0200-audience-links': m0200,
  '0205-lead-gate': m0205,
  '0206-audience-link-lead-gate': m0206,
  '0210-personal-data': m0210,
  '0215-multipart-size-at-end': m0215,
  '0220-lead-gate-link': m0220,
  '0225-photo-source-key': m0225,
  '0232-lead-gate-pass-version': m0232,
  '0240-tour-sharing': m0240,
  '0245-deletion-cancelled': m0245,
};
