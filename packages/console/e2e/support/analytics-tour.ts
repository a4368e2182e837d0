/**
 * The tour of the room analytics journey (room-analytics.spec.ts, issue 21), made by the real pipeline on the running
 * server: an agent signed up through the API and activated from the development outbox, a generated 12 s walkthrough
 * uploaded and processed, and two named rooms (Kitchen, Master Bedroom) as fast-travel markers.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEV_TURNSTILE_TOKEN, OAUTH_CLIENT } from '@roomwalk/shared';
import { gql, poll } from '../embed-support.js';

export interface AnalyticsTour {
  tourId: string;
  /** The agent's access token (to read the figures the server has while the journey waits on a beacon). */
  token: string;
  totalFrames: number;
  kitchenFrame: number;
  bedroomFrame: number;
}

function testVideo(): string {
  const dir = path.join(os.tmpdir(), 'roomwalk-e2e-videos');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'rooms-12s-v1.mp4');
  if (fs.existsSync(file)) return file;
  const tmp = `${file}.${process.pid}.tmp.mp4`;
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1280x720:rate=30:duration=12',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    tmp,
  ]);
  fs.renameSync(tmp, file);
  return file;
}

/** Signs the agent up and in (API), uploads and processes the tour, and names its rooms. */
export async function makeAnalyticsTour(base: string, agent: { email: string; password: string; name: string; surname: string }, title: string): Promise<AnalyticsTour> {
  await gql(base, 'mutation($input: UserRegisterInput!) { userRegister(input: $input) { id } }', {
    input: { username: agent.email, password: agent.password, name: agent.name, surname: agent.surname, acceptedTerms: true, turnstileToken: DEV_TURNSTILE_TOKEN },
  });
  const link = await poll(
    async () => {
      const mails = (await (await fetch(`${base}/dev/outbox.json`)).json()) as Array<{ to_address: string; links: string[] }>;
      return mails
        .filter((m) => m.to_address.toLowerCase() === agent.email)
        .flatMap((m) => m.links)
        .find((l) => /\/account\/activate\?token=/.test(l));
    },
    'the activation mail',
    15_000,
  );
  await gql(base, 'mutation($t: String!) { userActivation(token: $t) { id } }', { t: new URL(link).searchParams.get('token') });
  const login = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${OAUTH_CLIENT.id}:${OAUTH_CLIENT.secret}`).toString('base64')}` },
    body: JSON.stringify({ grant_type: 'password', username: agent.email, password: agent.password }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  if (!token) throw new Error(`login failed (${login.status})`);

  const url = await gql<{ fileGetPreSignedUrl: { uploadURL: string; key: string; headers: Array<{ key: string; value: string }> } }>(
    base,
    'mutation($ext: String!) { fileGetPreSignedUrl(input: $ext) { uploadURL key headers { key value } } }',
    { ext: 'mp4' },
    token,
  );
  const p = url.fileGetPreSignedUrl;
  const put = await fetch(p.uploadURL, { method: 'PUT', headers: Object.fromEntries(p.headers.map((h) => [h.key, h.value])), body: fs.readFileSync(testVideo()) });
  if (put.status !== 200) throw new Error(`upload answered ${put.status}`);
  const submitted = await gql<{ fileSubmitPreSignedUpload: { tourId: string } }>(base, 'mutation($key: String!) { fileSubmitPreSignedUpload(input: { key: $key }) { tourId } }', { key: p.key }, token);
  const tourId = submitted.fileSubmitPreSignedUpload.tourId;
  await gql(base, 'mutation($input: TourSaveInput!) { tourSave(input: $input) { id } }', { input: { id: tourId, title } }, token);
  const tour = await poll(
    async () => {
      const d = await gql<{ tour: { status: { status: string }; logs: unknown; clips: Array<{ frameCount: number }> } }>(
        base,
        'query($id: ID!) { tour(tourID: $id) { status { status } logs { status error } clips { frameCount } } }',
        { id: tourId },
        token,
      );
      if (d.tour.status.status === 'FAILED') throw new Error(`processing failed: ${JSON.stringify(d.tour.logs)}`);
      return d.tour.status.status === 'PROCESSED' ? d.tour : null;
    },
    'the tour to be processed',
    // A shared CI machine under load takes minutes for a 12 s video.
    300_000,
  );
  const totalFrames = tour.clips.reduce((n, c) => n + c.frameCount, 0);
  const kitchenFrame = Math.round(totalFrames * 0.3);
  const bedroomFrame = Math.round(totalFrames * 0.65);
  for (const [name, frameIndex] of [
    ['Kitchen', kitchenFrame],
    ['Master Bedroom', bedroomFrame],
  ] as const) {
    await gql(base, 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }', { input: { tourId, name, frameIndex, isFastTravel: true } }, token);
  }
  return { tourId, token, totalFrames, kitchenFrame, bedroomFrame };
}

/** The tour's figures as the server has them now (the last 7 days). */
export async function serverFigures(base: string, t: AnalyticsTour): Promise<{ visits: number; rooms: Array<{ name: string; seconds: number; visits: number }> }> {
  const d = await gql<{ tourAnalytics: { visits: number; rooms: Array<{ name: string; seconds: number; visits: number }> } }>(
    base,
    'query($id: ID!, $from: DateTime) { tourAnalytics(tourId: $id, from: $from) { visits rooms { name seconds visits } } }',
    { id: t.tourId, from: new Date(Date.now() - 6 * 86_400_000).toISOString() },
    t.token,
  );
  return d.tourAnalytics;
}
