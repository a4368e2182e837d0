/**
 * A slow PUT that finishes after fileSubmitPreSignedUpload does not replace the submitted
 * source (local storage); a failed tour's source stops being downloadable at once; the Stripe webhook refuses signed
 * timestamps from the future; company members who are not admins cannot read pending invite addresses.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { STRIPE_SIGNATURE_TOLERANCE_S } from '../../src/http/stripe-webhook.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { seedUser, type SeededUser } from '../helpers/seed.js';
import { Q, uploadAndSubmit, uploadBytes, waitFor } from '../fixtures/tours.js';
import { processTourJob } from '../../src/jobs/process-tour.js';
import { fakeMedia } from '../fixtures/fake-media.js';
import { VideoRejectedError } from '../../src/media/video-rejected-error.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const WEBHOOK_SECRET = 'whsec_hostile_test_secret';

async function readStored(t: TestApp, key: string): Promise<Buffer | null> {
  const obj = await t.app.services.storage.get(key);
  if (!obj) return null;
  const chunks: Buffer[] = [];
  for await (const c of obj.stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Files under `dir` (recursive) whose name ends with `.part`: a PUT's body being written. */
async function partFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return entries.filter((e) => e.endsWith('.part'));
}

describe('API node (no workers): upload race, webhook timestamps, invite addresses', () => {
  let t: TestApp;
  let owner: SeededUser;
  beforeAll(async () => {
    t = await startTestApp('pglite', {
      ROLE: 'api',
      STRIPE_SECRET_KEY: 'sk_test_hostile',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    });
    owner = await seedUser(t.app, { plan: 'basic' });
  });
  afterAll(async () => t?.stop());

  it('a PUT still sending when the upload is submitted is refused; the submitted bytes stay', async () => {
    const first = Buffer.alloc(256 * 1024, 1);
    const key = await uploadBytes(t, owner.token, first);
    // A second PUT to the same key (a valid link for it) starts, sends half its body and stalls.
    const { url, headers } = await t.app.services.storage.presignPut(key, {
      contentType: 'video/mp4',
      maxBytes: t.app.config.UPLOAD_MAX_BYTES,
      expiresInSeconds: 600,
    });
    const second = Buffer.alloc(256 * 1024, 2);
    const u = new URL(url);
    const req = http.request({
      host: u.hostname,
      port: u.port,
      path: u.pathname + u.search,
      method: 'PUT',
      headers: {
        ...Object.fromEntries(headers.map((h) => [h.key, h.value])),
        'content-type': 'video/mp4',
        'content-length': String(second.length),
      },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
    req.write(second.subarray(0, second.length / 2));
    // The stalled PUT is writing its temporary file (past every check made at its start).
    const filesDir = path.dirname((t.app.services.storage as unknown as { pathOf(k: string): string }).pathOf(key));
    await waitFor(async () => (await partFiles(filesDir)).length > 0, 'the second PUT to start writing', 15_000, 20);
    const submit = await t.gql(Q.submit, { key }, owner.token);
    expect(submit.errors).toBeUndefined();
    req.end(second.subarray(second.length / 2));
    const late = await answer;
    expect(late.status, late.body).toBe(409);
    expect(JSON.parse(late.body)).toMatchObject({ code: ERROR_CODES.CONFLICT });
    expect(sha((await readStored(t, key))!)).toBe(sha(first));
    expect(await partFiles(filesDir)).toEqual([]);
  });

  it('refuses a Stripe event signed with a timestamp from the future beyond the tolerance', async () => {
    const payload = JSON.stringify({
      id: 'evt_hostile_1',
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_1', object: 'customer' } },
    });
    const post = (timestamp: number) =>
      fetch(`${t.url}/webhooks/stripe`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp }),
        },
        body: payload,
      });
    const now = Math.floor(Date.now() / 1000);
    expect((await post(now)).status).toBe(200);
    expect((await post(now + 60)).status).toBe(200); // clock skew within the tolerance
    expect((await post(now + STRIPE_SIGNATURE_TOLERANCE_S + 3600)).status).toBe(400);
    expect((await post(now + 10 * 365 * 24 * 3600)).status).toBe(400);
    expect((await post(now - STRIPE_SIGNATURE_TOLERANCE_S - 60)).status).toBe(400);
  });

  it("lets members see the company's members but not pending invite addresses", async () => {
    const admin = await seedUser(t.app, { plan: 'basic' });
    const member = await seedUser(t.app, { companyId: admin.company.id });
    const invited = `pending-${Date.now()}@example.com`;
    const inv = await t.gql(
      'mutation($input: InviteMemberInput!) { inviteMember(input: $input) { id email } }',
      { input: { companyId: admin.companyId, email: invited } },
      admin.token,
    );
    expect(inv.errors).toBeUndefined();
    const LIST = '{ me { user { company { invites(first: 50) { edges { node { id email accepted } } } } } } }';
    const forAdmin = await t.gql(LIST, {}, admin.token);
    expect(forAdmin.data.me.user.company.invites.edges.map((e: any) => e.node.email)).toContain(invited);
    const forMember = await t.gql(LIST, {}, member.token);
    expect(forMember.errors).toBeUndefined();
    const seen = forMember.data.me.user.company.invites.edges.map((e: any) => e.node);
    expect(seen.map((n: any) => n.email)).not.toContain(invited);
    expect(seen.every((n: any) => n.accepted)).toBe(true);
    // Nor through node(id).
    const node = await t.gql(
      'query($id: ID!) { node(id: $id) { id ... on TeamInvite { email } } }',
      { id: inv.data.inviteMember.id },
      member.token,
    );
    expect(JSON.stringify(node.data ?? null)).not.toContain(invited);
  });
});

describe('a failed tour', () => {
  let t: TestApp;
  let owner: SeededUser;
  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLE: 'api' });
    owner = await seedUser(t.app, { plan: 'basic' });
  });
  afterAll(async () => t?.stop());

  it("stops serving the failed tour's source at once", async () => {
    const { key, tourId } = await uploadAndSubmit(
      t,
      owner.token,
      Buffer.from('this is not a video at all'.repeat(100)),
    );
    // A source upload is never public; the uploader's company reads it (Tour.videoURL) with its session.
    const member = { headers: { authorization: `Bearer ${owner.token}` } };
    const anyone = await fetch(`${t.url}/media/${key}`);
    await anyone.arrayBuffer();
    expect(anyone.status).toBe(404);
    const source = await fetch(`${t.url}/media/${key}`, member);
    await source.arrayBuffer();
    expect(source.status).toBe(200);
    // The job as a worker runs it, with the media core refusing the file (as the real probe does for this one).
    const id = tourId.replace(/^tour_/, '');
    await processTourJob(t.app.services, id, {
      ...fakeMedia(),
      probe: async () => {
        throw new VideoRejectedError(ERROR_CODES.VIDEO_INVALID, 'This file is not a video we can read.', 'test');
      },
    });
    const row = await t.app.services.db
      .selectFrom('tours')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('FAILED');
    const res = await fetch(`${t.url}/media/${key}`, member);
    await res.arrayBuffer();
    expect(res.status).toBe(404);
  });
});
