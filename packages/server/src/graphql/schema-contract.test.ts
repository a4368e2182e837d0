import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildSchema, findBreakingChanges, findDangerousChanges } from 'graphql';
import { printSdl } from './schema.js';

const sdlPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/schema.graphql');

describe('the checked-in SDL is the running schema', () => {
  it('matches packages/shared/schema.graphql exactly (run `npm run print-schema -w packages/server` after a change)', () => {
    const checkedIn = fs.readFileSync(sdlPath, 'utf8');
    const running = printSdl();
    const a = buildSchema(checkedIn);
    const b = buildSchema(running);
    expect(findBreakingChanges(a, b)).toEqual([]);
    expect(findDangerousChanges(a, b)).toEqual([]);
    expect(running).toBe(checkedIn);
  });

  it('carries every operation the spec names, with its argument names', () => {
    const s = buildSchema(fs.readFileSync(sdlPath, 'utf8'));
    const q = s.getQueryType()!.getFields();
    const m = s.getMutationType()!.getFields();
    const sub = s.getSubscriptionType()!.getFields();
    expect(Object.keys(q)).toEqual(expect.arrayContaining(['me', 'node', 'tours', 'tour', 'priceTiers']));
    const expectArgs: Record<string, string[]> = {
      userRegister: ['input'],
      userActivation: ['token'],
      userActivationEmailResend: ['email'],
      userRequestPasswordReset: ['input'],
      userPasswordReset: ['input'],
      userSave: ['input'],
      companySave: ['input'],
      inviteMember: ['input'],
      revokeMemberInvite: ['inviteId'],
      makeAdminMember: ['userId'],
      revokeAdminMember: ['userId'],
      paymentCheckout: ['input'],
      billingPortalSession: ['input'],
      tourReactivate: ['id'],
      generateTourByCompanyReport: ['input'],
      generateSummaryByUserReport: ['input'],
      tourSave: ['input'],
      tourUpdateThumbnailURL: ['input'],
      tourDelete: ['tourId'],
      tourGenerateReel: ['tourId'],
      fileGetPreSignedUrl: ['input'],
      fileSubmitPreSignedUpload: ['input'],
      markerSave: ['input'],
      markerUpdate: ['input'],
      markerDelete: ['markerId'],
      tourGenerateAIMarkers: ['tourId'],
      tourLeadCreate: ['input'],
      generateTourShots: ['tourId'],
      regenerateShot: ['shotId'],
      generateStagedShot: ['shotId', 'stagingPrompt'],
    };
    for (const [name, args] of Object.entries(expectArgs)) {
      expect(m[name], name).toBeDefined();
      expect(m[name]!.args.map((a) => a.name).sort(), name).toEqual([...args].sort());
    }
    expect(Object.keys(sub).sort()).toEqual(
      expect.arrayContaining(['tourGenerateAIMarkersUpdated', 'reelProgressUpdated', 'tourProgressUpdated']),
    );
    const fieldsOf = (t: string) => Object.keys((s.getType(t) as any).getFields());
    expect(fieldsOf('Tour')).toEqual(
      expect.arrayContaining([
        'id',
        'title',
        'description',
        'videoURL',
        'thumbnailURL',
        'tourIntroLogoURL',
        'listingLink',
        'views',
        'deactivatedViews',
        'createdAt',
        'status',
        'logs',
        'reels',
        'shots',
        'clips',
        'markers',
        'videoInfo',
        'agentProfile',
        'viewingSessionRequest',
      ]),
    );
    expect(fieldsOf('User')).toEqual(
      expect.arrayContaining([
        'id',
        'username',
        'isAdmin',
        'role',
        'profile',
        'company',
        'monthlyActiveTours',
        'monthlyUploadedTours',
        'topFiveTours',
      ]),
    );
    expect(fieldsOf('Company')).toEqual(
      expect.arrayContaining([
        'id',
        'name',
        'address',
        'vatno',
        'countrycode',
        'referredby',
        'logoimageurl',
        'license',
        'invites',
      ]),
    );
    expect(fieldsOf('License')).toEqual(
      expect.arrayContaining([
        'planName',
        'monthlyActiveTours',
        'monthlyUploadedTours',
        'uploadLimit',
        'quantity',
        'startDate',
        'endDate',
      ]),
    );
    expect(fieldsOf('Marker')).toEqual([
      'description',
      'frameIndex',
      'id',
      'isFastTravel',
      'name',
      'scrollPosition',
      'tourId',
    ]);
    expect(fieldsOf('Clip')).toEqual(['duration', 'frameCount', 'highURI', 'id', 'index', 'lowURI']);
    expect(fieldsOf('PriceTier')).toEqual(
      expect.arrayContaining([
        'priceId',
        'flatAmount',
        'unitAmount',
        'upTo',
        'currencyCode',
        'currencySymbol',
        'tierName',
      ]),
    );
    expect(fieldsOf('PreSignedUpload')).toEqual(['error', 'headers', 'key', 'message', 'uploadURL']);
  });
});
