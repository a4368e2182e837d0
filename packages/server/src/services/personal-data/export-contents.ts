/**
 * What a personal data export holds: everything the product keeps about one user, read fresh, as JSON files with a
 * manifest naming each. Media are links, not copies (a tour's clips alone are hundreds of megabytes): public tours'
 * links work while the tour exists; a protected tour's are signed and work for two to three hours (the manifest says
 * so). Another user's data never enters: every read is keyed by this user's id, or by tours this user owns.
 */
import { encodeId } from '../../core/ids.js';
import type { Services } from '../services.js';
import { tourMediaUrl } from '../tour-access/tour-access.js';

const EXPORT_FORMAT = { name: 'roomwalk-personal-data', version: 1 } as const;

export interface ExportFile {
  name: string;
  description: string;
  /** How many records the file holds (an object counts as one). */
  records: number;
  content: unknown;
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** The profile file: the account, its profile, the company it belongs to and the company's plan. */
async function profileFile(services: Services, userId: string): Promise<ExportFile> {
  const db = services.db;
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const profile = await db.selectFrom('user_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const company = await db
    .selectFrom('companies')
    .selectAll()
    .where('id', '=', user.company_id)
    .executeTakeFirstOrThrow();
  const license = await db
    .selectFrom('licenses')
    .select(['plan_name', 'start_date', 'end_date'])
    .where('company_id', '=', company.id)
    .executeTakeFirst();
  return {
    name: 'profile.json',
    description: 'Your account, your profile and the company you belong to.',
    records: 1,
    content: {
      account: {
        id: encodeId('User', user.id),
        email: user.username,
        role: user.role,
        signInWithGoogle: user.oidc_subject !== null,
        hasPassword: user.password_hash !== null,
        activatedAt: iso(user.activated_at),
        createdAt: iso(user.created_at),
      },
      profile: profile
        ? {
            name: profile.name,
            surname: profile.surname,
            contactNumber: profile.contact_number,
            profileImageURL: profile.profile_image_key ? services.storage.publicUrl(profile.profile_image_key) : null,
          }
        : null,
      company: {
        id: encodeId('Company', company.id),
        name: company.name,
        address: company.address,
        vatNo: company.vat_no,
        countryCode: company.country_code,
        logoURL: company.logo_key ? services.storage.publicUrl(company.logo_key) : null,
        accentColor: company.accent_color,
        createdAt: iso(company.created_at),
        plan: license
          ? { name: license.plan_name, since: iso(license.start_date), until: iso(license.end_date) }
          : null,
      },
    },
  };
}

/**
 * The tours file: every tour this user owns (deleted ones too, as long as their row is kept), with rooms and media
 * links.
 */
async function toursFile(services: Services, userId: string): Promise<{ file: ExportFile; tourIds: string[] }> {
  const db = services.db;
  const tours = await db
    .selectFrom('tours')
    .selectAll()
    .where('owner_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const ids = tours.map((t) => t.id);
  const [markers, clips, reels, shots] = ids.length
    ? await Promise.all([
        db.selectFrom('markers').selectAll().where('tour_id', 'in', ids).orderBy('frame_index').execute(),
        db.selectFrom('clips').selectAll().where('tour_id', 'in', ids).orderBy('index').execute(),
        db.selectFrom('reels').selectAll().where('tour_id', 'in', ids).orderBy('created_at').execute(),
        db.selectFrom('shots').selectAll().where('tour_id', 'in', ids).orderBy('created_at').execute(),
      ])
    : [[], [], [], []];
  const of = <T extends { tour_id: string }>(rows: T[], id: string) => rows.filter((r) => r.tour_id === id);
  const content = tours.map((t) => {
    const url = (key: string | null) => (key && !t.deleted_at ? tourMediaUrl(services, t, key) : null);
    return {
      id: encodeId('Tour', t.id),
      title: t.title,
      description: t.description,
      listingLink: t.listing_link,
      status: t.status,
      access: t.access,
      views: t.views,
      blurFaces: t.blur_faces,
      liveViewing: t.live_viewing,
      createdAt: iso(t.created_at),
      updatedAt: iso(t.updated_at),
      deactivatedAt: iso(t.deactivated_at),
      deletedAt: iso(t.deleted_at),
      rooms: of(markers, t.id).map((m) => ({
        name: m.name,
        description: m.description,
        frameIndex: m.frame_index,
        fastTravel: m.is_fast_travel,
        source: m.source,
      })),
      media: {
        posterURL: url(t.thumbnail_key),
        clips: of(clips, t.id).map((c) => ({
          index: c.index,
          frames: c.frame_count,
          highURL: url(c.high_key),
          lowURL: url(c.low_key),
        })),
        reels: of(reels, t.id).map((r) => ({
          key: r.key,
          status: r.status,
          videoURL: url(r.video_key),
          createdAt: iso(r.created_at),
        })),
        photos: of(shots, t.id).map((s) => ({
          room: s.room_type,
          status: s.status,
          originalURL: url(s.original_key),
          enhancedURL: url(s.enhanced_key),
          stagedURL: url(s.staged_key),
        })),
      },
    };
  });
  return {
    file: {
      name: 'tours.json',
      description: 'The tours you own: their details, rooms and links to their pictures and clips.',
      records: content.length,
      content,
    },
    tourIds: ids,
  };
}

/** The leads file: what visitors left on this user's tours (the agent is the one who received them). */
async function leadsFile(services: Services, tourIds: string[]): Promise<ExportFile> {
  const rows = tourIds.length
    ? await services.db
        .selectFrom('tour_leads')
        .innerJoin('tours', 'tours.id', 'tour_leads.tour_id')
        .select([
          'tour_leads.id',
          'tour_leads.tour_id',
          'tours.title',
          'tour_leads.name',
          'tour_leads.surname',
          'tour_leads.email',
          'tour_leads.contact_number',
          'tour_leads.lead_type',
          'tour_leads.created_at',
        ])
        .where('tour_leads.tour_id', 'in', tourIds)
        .orderBy('tour_leads.created_at')
        .execute()
    : [];
  const content = rows.map((l) => ({
    id: encodeId('TourLead', l.id),
    tour: { id: encodeId('Tour', l.tour_id), title: l.title },
    name: l.name,
    surname: l.surname,
    email: l.email,
    contactNumber: l.contact_number,
    type: l.lead_type,
    createdAt: iso(l.created_at),
  }));
  return {
    name: 'leads.json',
    description: 'The leads visitors left on your tours.',
    records: content.length,
    content,
  };
}

/**
 * The activity file: what this user did (uploads, reels, AI markers, reports, keys, invites, live viewings, feedback).
 */
async function activityFile(services: Services, userId: string): Promise<ExportFile> {
  const db = services.db;
  const [uploads, reels, aiRuns, reportRuns, reportLinks, digests, apiKeys, invites, sessions, feedback, exports] =
    await Promise.all([
      db
        .selectFrom('uploads')
        .select(['created_at', 'submitted_at', 'size', 'extension', 'tour_id'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('reels')
        .select(['tour_id', 'key', 'status', 'created_at'])
        .where('created_by', '=', userId)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('ai_marker_runs')
        .select(['tour_id', 'status', 'created_at', 'finished_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('seller_report_runs')
        .select(['tour_id', 'kind', 'days', 'status', 'created_at'])
        .where('requested_by', '=', userId)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('seller_report_links')
        .select(['tour_id', 'prefix', 'days', 'expires_at', 'revoked_at', 'created_at'])
        .where('created_by', '=', userId)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('seller_report_digests')
        .select(['tour_id', 'frequency', 'day', 'recipients', 'created_at'])
        .where('created_by', '=', userId)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('api_keys')
        .select(['name', 'prefix', 'created_at', 'last_used_at', 'revoked_at'])
        .where('created_by', '=', userId)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('team_invites')
        .select(['email', 'accepted', 'created_at', 'revoked_at'])
        .where('invited_by', '=', userId)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('viewing_sessions')
        .select(['tour_id', 'created_at', 'expires_at'])
        .where('created_by', '=', userId)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('feedback')
        .select(['name', 'email', 'comment', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('data_exports')
        .select(['status', 'created_at', 'finished_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute(),
    ]);
  const tour = (id: string | null) => (id ? encodeId('Tour', id) : null);
  const content = {
    uploads: uploads.map((u) => ({
      startedAt: iso(u.created_at),
      submittedAt: iso(u.submitted_at),
      bytes: u.size === null ? null : Number(u.size),
      extension: u.extension,
      tour: tour(u.tour_id),
    })),
    reels: reels.map((r) => ({ tour: tour(r.tour_id), key: r.key, status: r.status, createdAt: iso(r.created_at) })),
    aiMarkerRuns: aiRuns.map((r) => ({
      tour: tour(r.tour_id),
      status: r.status,
      startedAt: iso(r.created_at),
      finishedAt: iso(r.finished_at),
    })),
    sellerReports: reportRuns.map((r) => ({
      tour: tour(r.tour_id),
      kind: r.kind,
      days: r.days,
      status: r.status,
      createdAt: iso(r.created_at),
    })),
    sellerReportLinks: reportLinks.map((l) => ({
      tour: tour(l.tour_id),
      prefix: l.prefix,
      days: l.days,
      expiresAt: iso(l.expires_at),
      revokedAt: iso(l.revoked_at),
      createdAt: iso(l.created_at),
    })),
    sellerDigests: digests.map((d) => ({
      tour: tour(d.tour_id),
      frequency: d.frequency,
      day: d.day,
      recipients: d.recipients,
      createdAt: iso(d.created_at),
    })),
    apiKeys: apiKeys.map((k) => ({
      name: k.name,
      prefix: k.prefix,
      createdAt: iso(k.created_at),
      lastUsedAt: iso(k.last_used_at),
      revokedAt: iso(k.revoked_at),
    })),
    teamInvites: invites.map((i) => ({
      email: i.email,
      accepted: i.accepted,
      createdAt: iso(i.created_at),
      revokedAt: iso(i.revoked_at),
    })),
    liveViewings: sessions.map((s) => ({
      tour: tour(s.tour_id),
      startedAt: iso(s.created_at),
      until: iso(s.expires_at),
    })),
    feedback: feedback.map((f) => ({ name: f.name, email: f.email, comment: f.comment, sentAt: iso(f.created_at) })),
    dataExports: exports.map((e) => ({
      status: e.status,
      requestedAt: iso(e.created_at),
      finishedAt: iso(e.finished_at),
    })),
  };
  const records = Object.values(content).reduce((n, list) => n + list.length, 0);
  return {
    name: 'activity.json',
    description:
      'What you did in Roomwalk: uploads, reels, AI markers, seller reports, API keys, invites, live viewings, feedback and earlier exports.',
    records,
    content,
  };
}

/** The export's files in order, reporting progress (percent, text) between the reads. */
export async function collectExport(
  services: Services,
  userId: string,
  progress: (percent: number, text: string) => Promise<void>,
): Promise<ExportFile[]> {
  await progress(10, 'Reading your profile');
  const profile = await profileFile(services, userId);
  await progress(30, 'Reading your tours');
  const { file: tours, tourIds } = await toursFile(services, userId);
  await progress(55, 'Reading the leads you received');
  const leads = await leadsFile(services, tourIds);
  await progress(70, 'Reading your activity');
  const activity = await activityFile(services, userId);
  return [profile, tours, leads, activity];
}

/** manifest.json: what the archive is, for whom, when, and what each file holds. */
export function exportManifest(userId: string, email: string, files: ExportFile[], now: Date) {
  return {
    format: EXPORT_FORMAT.name,
    version: EXPORT_FORMAT.version,
    exportedAt: now.toISOString(),
    user: { id: encodeId('User', userId), email },
    files: files.map((f) => ({ name: f.name, description: f.description, records: f.records })),
    notes: [
      'Pictures and clips are links, not copies. Links of public tours work while the tour exists; links of password-protected or company-only tours are signed and stop working two to three hours after the export was made.',
      'Visits to your tours are anonymous: the export holds their counts (views), not the visitors.',
    ],
  };
}
