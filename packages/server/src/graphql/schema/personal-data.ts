/**
 * A person's data: the export of everything held about the caller, and deleting their own account
 * (docs/data-retention.md).
 */
import { builder } from '../builder.js';
import { requireAuth } from '../guards.js';
import type { DataExportRow } from '../../db/tables/personal-data.js';
import {
  previewDeletion,
  requestDeletion,
  type DeletionPreview,
  type DeletionRequestOutcome,
} from '../../services/personal-data/account-deletion.js';
import { downloadUrlOf, latestExport, requestExport } from '../../services/personal-data/exports.js';
import { deletionConsequences } from '../../services/personal-data/personal-data-mail.js';

const ExportStatusEnum = builder.enumType('DataExportStatus', {
  values: ['QUEUED', 'RUNNING', 'DONE', 'FAILED'] as const,
});

const DataExportRef = builder.objectRef<DataExportRow>('DataExport').implement({
  description:
    'A copy of everything held about the caller, made in the job queue; poll dataExport until DONE or FAILED.',
  fields: (t) => ({
    status: t.field({ type: ExportStatusEnum, resolve: (r) => r.status }),
    progress: t.exposeInt('progress', { description: '0–100.' }),
    progressText: t.exposeString('progress_text'),
    error: t.exposeString('error', { nullable: true }),
    requestedAt: t.field({ type: 'DateTime', resolve: (r) => r.created_at }),
    downloadURL: t.string({
      nullable: true,
      description: 'The signed link to the ZIP once DONE, until it expires (also mailed).',
      resolve: (r, _a, ctx) => downloadUrlOf(ctx.services, r),
    }),
    expiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the download link stops working.',
      resolve: (r) => r.expires_at,
    }),
  }),
});

const DeletionPreviewRef = builder.objectRef<DeletionPreview>('AccountDeletionPreview').implement({
  description: 'What deleting the caller’s account would do, before they confirm.',
  fields: (t) => ({
    allowed: t.boolean({ resolve: (p) => p.refusal === null }),
    refusal: t.string({
      nullable: true,
      description: 'Why it cannot be deleted now, in the user’s words.',
      resolve: (p) => p.refusal,
    }),
    consequences: t.string({ description: 'What goes and when.', resolve: (p) => deletionConsequences(p.plan) }),
    companyToo: t.boolean({
      description: 'The company, its tours and media go too (nobody else is left in it).',
      resolve: (p) => p.plan.companyToo,
    }),
    tours: t.int({ description: 'Tours that go (companyToo) or pass to an admin.', resolve: (p) => p.plan.tours }),
    graceDays: t.int({
      description: 'Days until the deletion; signing in before then cancels it.',
      resolve: (p) => p.plan.graceDays,
    }),
    deleteAfter: t.field({ type: 'DateTime', resolve: (p) => p.plan.purgeAfter }),
    needsPassword: t.boolean({
      description: 'False for an account that signs in with Google only: the deletion is confirmed by a mailed link.',
      resolve: (p) => p.needsPassword,
    }),
  }),
});

const DeletionStatusEnum = builder.enumType('AccountDeletionStatus', {
  values: ['SCHEDULED', 'CONFIRMATION_SENT'] as const,
});

const DeletionOutcomeRef = builder.objectRef<DeletionRequestOutcome>('AccountDeletionOutcome').implement({
  fields: (t) => ({
    status: t.field({ type: DeletionStatusEnum, resolve: (o) => o.status }),
    deleteAfter: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When SCHEDULED: the day it goes. The caller is signed out.',
      resolve: (o) => o.purgeAfter,
    }),
  }),
});

builder.queryFields((t) => ({
  dataExport: t.field({
    type: DataExportRef,
    nullable: true,
    description: 'The caller’s newest data export (null when they never asked for one).',
    resolve: (_r, _a, ctx) => latestExport(ctx.services, requireAuth(ctx)),
  }),
  accountDeletionPreview: t.field({
    type: DeletionPreviewRef,
    description: 'What deleting the caller’s account would do, or why it cannot be deleted now.',
    resolve: (_r, _a, ctx) => previewDeletion(ctx.services, requireAuth(ctx)),
  }),
}));

builder.mutationFields((t) => ({
  dataExportCreate: t.field({
    type: DataExportRef,
    description:
      'Queues a ZIP of everything held about the caller; a mail brings its link when ready. Limited to a few a day.',
    resolve: (_r, _a, ctx) => requestExport(ctx.services, requireAuth(ctx)),
  }),
  accountDeletionRequest: t.field({
    type: DeletionOutcomeRef,
    description:
      'Schedules the deletion of the caller’s account after the grace period (password required), or mails a confirmation link to an account without a password.',
    args: { password: t.arg.string({ required: false }) },
    resolve: (_r, args, ctx) => requestDeletion(ctx.services, requireAuth(ctx), args.password ?? null),
  }),
}));
