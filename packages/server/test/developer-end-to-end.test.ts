/**
 * A Pro admin creates an API key and a webhook endpoint; the integration
 * uploads a video through the API with the key; ffmpeg processes it; the receiver gets a `tour.processed` it verifies
 * with the Standard Webhooks verifier, naming the tour the upload created.
 */
import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { seedUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { Q, landscapeVideo } from './fixtures/tours.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

describe('APIs & Webhooks end to end', () => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startTestApp('pglite');
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.stop();
  });

  it('a tour uploaded with an API key is announced by a verified tour.processed webhook', async () => {
    const admin = await seedUser(t.app, { plan: 'pro' });
    const key = (await t.gql(`mutation { apiKeyCreate(input: { name: "Listing site" }) { secret } }`, {}, admin.token))
      .data.apiKeyCreate.secret as string;
    const created = await t.gql(
      `mutation($url: String!) { webhookEndpointCreate(input: { url: $url, events: [TOUR_PROCESSED, TOUR_FAILED] }) { secret } }`,
      { url: receiver.url },
      admin.token,
    );
    const secret = created.data.webhookEndpointCreate.secret as string;

    // The integration's side: only the key.
    const video = await fs.readFile(await landscapeVideo(11));
    const url = (await t.gql(Q.getUrl, { ext: 'mp4' }, key)).data.fileGetPreSignedUrl;
    expect(url.error).toBeNull();
    const put = await fetch(url.uploadURL, {
      method: 'PUT',
      headers: Object.fromEntries(url.headers.map((h: { key: string; value: string }) => [h.key, h.value])),
      body: video,
    });
    expect(put.status).toBe(200);
    const submitted = await t.gql(Q.submit, { key: url.key }, key);
    expect(submitted.errors).toBeUndefined();
    const tourId = submitted.data.fileSubmitPreSignedUpload.tourId as string;

    const [got] = await receiver.waitFor(1);
    const event = new Webhook(secret).verify(got!.body, got!.headers) as {
      type: string;
      api_version: string;
      data: { tour: { id: string; status: string; shareURL: string } };
    };
    expect(event.type).toBe('tour.processed');
    expect(event.data.tour).toMatchObject({ id: tourId, status: 'PROCESSED' });
    expect(event.data.tour.shareURL).toContain(tourId);
    // The tour is the key's company's, owned by the admin who made the key, and readable with the key.
    const tour = await t.gql(
      `query($id: ID!) { tour(tourID: $id) { id status { status } clips { id } } }`,
      { id: tourId },
      key,
    );
    expect(tour.data.tour.status.status).toBe('PROCESSED');
    expect(tour.data.tour.clips.length).toBeGreaterThan(0);
  }, 180_000);
});
