/**
 * The `data` of each webhook event (examples in docs/api.md). Ids are the GraphQL ids (tour_…, lead_…,
 * reel_…), so a receiver can fetch more with its API key. Raising an event never fails the work that raised it.
 */
import { encodeId } from '../../core/ids.js';
import type { Services } from '../services.js';
import { emitWebhookEvent } from './webhook-deliveries.js';

async function tourData(
  services: Services,
  tourId: string,
): Promise<{ companyId: string; tour: Record<string, unknown> } | null> {
  const t = await services.db.selectFrom('tours').selectAll().where('id', '=', tourId).executeTakeFirst();
  if (!t) return null;
  return {
    companyId: t.company_id,
    tour: {
      id: encodeId('Tour', t.id),
      title: t.title,
      status: t.status,
      listingLink: t.listing_link,
      thumbnailURL: t.thumbnail_key ? services.storage.publicUrl(t.thumbnail_key) : null,
      shareURL: `${services.config.publicUrl}/playerext?tourId=${encodeId('Tour', t.id)}`,
      createdAt: new Date(t.created_at).toISOString(),
    },
  };
}

const safely = async (services: Services, what: string, run: () => Promise<void>): Promise<void> => {
  try {
    await run();
  } catch (err) {
    services.log.error({ err }, `webhook ${what} not raised`);
  }
};

export const tourProcessedWebhook = (services: Services, tourId: string) =>
  safely(services, 'tour.processed', async () => {
    const d = await tourData(services, tourId);
    if (d) await emitWebhookEvent(services, d.companyId, 'tour.processed', { tour: d.tour });
  });

export const tourFailedWebhook = (services: Services, tourId: string, reason: string) =>
  safely(services, 'tour.failed', async () => {
    const d = await tourData(services, tourId);
    if (d) await emitWebhookEvent(services, d.companyId, 'tour.failed', { tour: d.tour, reason });
  });

export const tourDeletedWebhook = (services: Services, companyId: string, tourId: string) =>
  safely(services, 'tour.deleted', () =>
    emitWebhookEvent(services, companyId, 'tour.deleted', { tour: { id: encodeId('Tour', tourId) } }),
  );

export const leadCreatedWebhook = (
  services: Services,
  companyId: string,
  lead: {
    id: string;
    tourId: string;
    name: string;
    surname: string | null;
    email: string;
    contactNumber: string | null;
    leadType: string;
    createdAt: Date | string;
  },
  liveSessionLink: string | null,
) =>
  safely(services, 'lead.created', () =>
    emitWebhookEvent(services, companyId, 'lead.created', {
      lead: {
        id: encodeId('TourLead', lead.id),
        tourId: encodeId('Tour', lead.tourId),
        name: lead.name,
        surname: lead.surname,
        email: lead.email,
        contactNumber: lead.contactNumber,
        leadType: lead.leadType,
        createdAt: new Date(lead.createdAt).toISOString(),
      },
      liveViewing: liveSessionLink ? { link: liveSessionLink } : null,
    }),
  );

export const reelWebhook = (services: Services, reelId: string, ok: boolean, reason?: string) =>
  safely(services, ok ? 'reel.created' : 'reel.failed', async () => {
    const r = await services.db
      .selectFrom('reels')
      .innerJoin('tours', 'tours.id', 'reels.tour_id')
      .select(['reels.id', 'reels.tour_id', 'reels.video_key', 'tours.company_id'])
      .where('reels.id', '=', reelId)
      .executeTakeFirst();
    if (!r) return;
    const reel = {
      id: encodeId('Reel', r.id),
      tourId: encodeId('Tour', r.tour_id),
      videoURL: ok && r.video_key ? services.storage.publicUrl(r.video_key) : null,
    };
    await emitWebhookEvent(
      services,
      r.company_id,
      ok ? 'reel.created' : 'reel.failed',
      ok ? { reel } : { reel, reason: reason ?? null },
    );
  });

export const tourScopedWebhook = (
  services: Services,
  type: 'shots.completed' | 'markers.ai_completed',
  tourId: string,
  extra: Record<string, unknown>,
) =>
  safely(services, type, async () => {
    const t = await services.db.selectFrom('tours').select(['company_id']).where('id', '=', tourId).executeTakeFirst();
    if (t) await emitWebhookEvent(services, t.company_id, type, { tour: { id: encodeId('Tour', tourId) }, ...extra });
  });
