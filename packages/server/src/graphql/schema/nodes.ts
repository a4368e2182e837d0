/**
 * `node(id)` for every type with a global id (docs/decisions.md: "node(id) resolves any of them, but only for members
 * of the owning company"). Tour and User load through their node refs; the rest here. Each answers null to anyone
 * who may not read the object, exactly as for an id that does not exist, so ids cannot be probed.
 */
import type { Context } from '../builder.js';
import { builder, registerNodeLoader } from '../builder.js';
import { aiDb } from '../../services/ai/tables.js';
import { liveDb } from '../../services/live/tables.js';
import { CompanyRef, ProfileRef, TeamInviteRef } from './accounts.js';
import { TourLeadRef } from './live.js';
import { ReelRef, ShotRef, toReelModel, toShotModel } from './media.js';
import { ClipRef, MarkerRef } from './tour-refs.js';

// The types join the Node interface (their `id` field is already the global id).
const Node = builder.nodeInterfaceRef();
for (const ref of [CompanyRef, ProfileRef, TeamInviteRef, MarkerRef, ClipRef, ReelRef, ShotRef, TourLeadRef]) ref.addInterfaces([Node]);

/** The tour (not deleted) belongs to the caller's company. */
async function tourOfCallersCompany(ctx: Context, tourId: string): Promise<boolean> {
  if (!ctx.auth) return false;
  const tour = await ctx.services.db.selectFrom('tours').select(['company_id']).where('id', '=', tourId).where('deleted_at', 'is', null).executeTakeFirst();
  return tour?.company_id === ctx.auth.companyId;
}

registerNodeLoader('Company', async (id, ctx) => {
  if (ctx.auth?.companyId !== id) return null;
  return (await ctx.services.db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
});

registerNodeLoader('UserProfile', async (id, ctx) => {
  if (!ctx.auth) return null;
  const row = await ctx.services.db
    .selectFrom('user_profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .selectAll('p')
    .select(['u.username as email', 'u.company_id'])
    .where('p.id', '=', id)
    .executeTakeFirst();
  return row && row.company_id === ctx.auth.companyId ? row : null;
});

// Invites carry emails: the Team page's readers only (company admins).
registerNodeLoader('TeamInvite', async (id, ctx) => {
  if (!ctx.auth || !(ctx.auth.isCompanyAdmin || ctx.auth.isSuperAdmin)) return null;
  const row = await ctx.services.db.selectFrom('team_invites').selectAll().where('id', '=', id).executeTakeFirst();
  return row && row.company_id === ctx.auth.companyId ? row : null;
});

registerNodeLoader('Marker', async (id, ctx) => {
  if (!ctx.auth) return null;
  const row = await ctx.services.db.selectFrom('markers').selectAll().where('id', '=', id).executeTakeFirst();
  return row && (await tourOfCallersCompany(ctx, row.tour_id)) ? row : null;
});

registerNodeLoader('Clip', async (id, ctx) => {
  if (!ctx.auth) return null;
  const row = await ctx.services.db.selectFrom('clips').selectAll().where('id', '=', id).executeTakeFirst();
  return row && (await tourOfCallersCompany(ctx, row.tour_id)) ? row : null;
});

registerNodeLoader('Reel', async (id, ctx) => {
  if (!ctx.auth) return null;
  const row = await aiDb(ctx.services.db).selectFrom('reels').selectAll().where('id', '=', id).executeTakeFirst();
  return row && (await tourOfCallersCompany(ctx, row.tour_id)) ? toReelModel(ctx.services, row) : null;
});

registerNodeLoader('Shot', async (id, ctx) => {
  if (!ctx.auth) return null;
  const row = await aiDb(ctx.services.db).selectFrom('shots').selectAll().where('id', '=', id).executeTakeFirst();
  return row && (await tourOfCallersCompany(ctx, row.tour_id)) ? toShotModel(ctx.services, row) : null;
});

registerNodeLoader('TourLead', async (id, ctx) => {
  if (!ctx.auth) return null;
  const db = liveDb(ctx.services.db);
  const lead = await db.selectFrom('tour_leads').selectAll().where('id', '=', id).executeTakeFirst();
  if (!lead || !(await tourOfCallersCompany(ctx, lead.tour_id))) return null;
  const session = await db.selectFrom('viewing_sessions').select(['id']).where('lead_id', '=', lead.id).orderBy('created_at', 'desc').executeTakeFirst();
  return {
    id: lead.id,
    name: lead.name,
    surname: lead.surname,
    email: lead.email,
    contactNumber: lead.contact_number,
    leadType: lead.lead_type,
    tourId: lead.tour_id,
    viewingSessionId: session?.id ?? null,
  };
});
