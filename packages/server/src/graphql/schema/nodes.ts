/**
 * `node(id)` for every type with a global id (docs/decisions.md: "node(id) resolves any of them, but only for members
 * of the owning company"). Tour and User load through their node refs; the rest here. Each answers null to anyone
 * who may not read the object, exactly as for an id that does not exist, so ids cannot be probed.
 */
import { mayManageLeadsOfTour } from '../../services/lead-gate/lead-rights.js';
import type { Context } from '../builder.js';
import { builder, registerNodeLoader } from '../builder.js';
import { companyById, inviteById, profileById } from '../../services/account-reads.js';
import { leadById } from '../../services/live/lead-reads.js';
import { reelById, shotById } from '../../services/media-reads.js';
import { clipById, markerById, tourCompanyId } from '../../services/tour-reads.js';
import { CompanyRef, ProfileRef, TeamInviteRef } from './accounts.js';
import { TourLeadRef } from './live.js';
import { ReelRef, ShotRef, toReelModel, toShotModel } from './media.js';
import { ClipRef, MarkerRef } from './tour-refs.js';

// The types join the Node interface (their `id` field is already the global id).
const Node = builder.nodeInterfaceRef();
for (const ref of [CompanyRef, ProfileRef, TeamInviteRef, MarkerRef, ClipRef, ReelRef, ShotRef, TourLeadRef])
  ref.addInterfaces([Node]);

/** The tour (not deleted) belongs to the caller's company. */
async function tourOfCallersCompany(ctx: Context, tourId: string): Promise<boolean> {
  if (!ctx.auth) return false;
  return (await tourCompanyId(ctx.services, tourId, { live: true })) === ctx.auth.companyId;
}

registerNodeLoader('Company', async (id, ctx) => {
  if (ctx.auth?.companyId !== id) return null;
  return companyById(ctx.services, id);
});

registerNodeLoader('UserProfile', async (id, ctx) => {
  if (!ctx.auth) return null;
  const row = await profileById(ctx.services, id);
  return row && row.company_id === ctx.auth.companyId ? row : null;
});

// Invites carry emails: the Team page's readers only (company admins).
registerNodeLoader('TeamInvite', async (id, ctx) => {
  if (!ctx.auth || !(ctx.auth.isCompanyAdmin || ctx.auth.isSuperAdmin)) return null;
  const row = await inviteById(ctx.services, id);
  return row && row.company_id === ctx.auth.companyId ? row : null;
});

registerNodeLoader('Marker', async (id, ctx) => {
  if (!ctx.auth) return null;
  const row = await markerById(ctx.services, id);
  return row && (await tourOfCallersCompany(ctx, row.tour_id)) ? row : null;
});

registerNodeLoader('Clip', async (id, ctx) => {
  if (!ctx.auth) return null;
  const row = await clipById(ctx.services, id);
  return row && (await tourOfCallersCompany(ctx, row.tour_id)) ? row : null;
});

registerNodeLoader('Reel', async (id, ctx) => {
  if (!ctx.auth) return null;
  const row = await reelById(ctx.services, id);
  return row && (await tourOfCallersCompany(ctx, row.tour_id)) ? toReelModel(ctx.services, row) : null;
});

registerNodeLoader('Shot', async (id, ctx) => {
  if (!ctx.auth) return null;
  const row = await shotById(ctx.services, id);
  return row && (await tourOfCallersCompany(ctx, row.tour_id)) ? toShotModel(ctx.services, row) : null;
});

registerNodeLoader('TourLead', async (id, ctx) => {
  const auth = ctx.auth;
  if (!auth) return null;
  const lead = await leadById(ctx.services, id);
  if (!lead) return null;
  // Leads are the tour owner's and the company admins' (services/lead-gate/lead-rights.ts).
  return (await mayManageLeadsOfTour(ctx.services.db, auth, lead.tourId)) ? lead : null;
});
