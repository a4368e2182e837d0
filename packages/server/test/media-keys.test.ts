/**
 * One rule on the canonical key decides who reads a stored file (http/media.ts, storage/media-key.ts). Every file a
 * password, company-only or lead-gated tour has (clips of each rendition, poster, thumbnail, photo, reel, the original
 * in its new and its old place, the source upload, multipart staging, the owner's data export) is asked for through
 * every other spelling of its path (dot segments, %2e/%2E, %2f/%2F, double encoding, backslash and %5c, case, trailing
 * dot, //, an encoded letter, a control character), unsigned and with a signature of its own key, of another tour's,
 * of an earlier access version and an expired one, on the local store and on S3 (s3rver): every one is refused and
 * never answers the bytes. The happy paths still work: a public tour's clip and a gated tour's clip before the gate, a
 * password tour's or a gated clip signed for its caller, the original and the source upload for a member of the
 * tour's company (and no one else), from two client addresses.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';
import { mediaSignature } from '../src/services/tour-access/grants.js';
import { tourMediaUrlById } from '../src/services/tour-access/tour-access.js';
import { accessIndexOf } from '../src/services/tour-access/access-index.js';

const BUCKET = 'roomwalk-media-keys';
const SET_ACCESS = 'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id access } }';
/** Two client addresses: nothing here may depend on where the request comes from. */
const ADDRESSES = ['127.0.0.1', '127.0.0.2'] as const;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET with the path exactly as written: fetch (WHATWG URL) would resolve dot segments and %2e before sending. */
function rawGet(
  base: string,
  rawPath: string,
  o: { localAddress?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: rawPath,
        method: 'GET',
        localAddress: o.localAddress ?? ADDRESSES[0],
        headers: o.headers ?? {},
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Every other way to spell `key` in a URL path: each names the same object to a lax reader, and must name nothing. */
function spellings(key: string): string[] {
  const segs = key.split('/');
  const first = segs[0]!;
  const rest = segs.slice(1).join('/');
  const last = segs[segs.length - 1]!;
  const head = segs.slice(0, -1).join('/');
  const out = new Set<string>([
    `${first}/./${rest}`,
    `./${key}`,
    `${key.replace(/\/([^/]+)$/, '/./$1')}`,
    `${first}/x/../${rest}`,
    `x/../${key}`,
    `${first}/../${key}`,
    `${head}/../${head.split('/').pop()}/${last}`,
    `${first}/%2e/${rest}`,
    `${first}/%2E/${rest}`,
    `${first}/x/%2e%2e/${rest}`,
    `${first}/x/%2E%2E/${rest}`,
    `${first}/x/.%2e/${rest}`,
    key.replaceAll('/', '%2f'),
    key.replaceAll('/', '%2F'),
    `${first}%2f.%2f${segs.slice(1).join('%2f')}`,
    `${first}%2F${rest}`,
    `${first}/%252e/${rest}`,
    `${first}/%252E/${rest}`,
    `${first}/x/%252e%252e/${rest}`,
    key.replaceAll('/', '%252f'),
    key.replaceAll('/', '%252F'),
    `${first}\\${rest}`,
    key.replaceAll('/', '\\'),
    `${first}/.\\${rest}`,
    `${first}%5c${rest}`,
    `${first}%5C${rest}`,
    key.toUpperCase(),
    `${first[0]!.toUpperCase()}${key.slice(1)}`,
    `${head}/${last.toUpperCase()}`,
    `${head.toUpperCase()}/${last}`,
    `${key}.`,
    `${first}./${rest}`,
    `${head}/${last}%2e`,
    `${first}//${rest}`,
    `/${key}`,
    `${key}/`,
    `${head}//${last}`,
    `%${first.charCodeAt(0).toString(16)}${key.slice(1)}`,
    `${key.slice(0, -1)}%${key.charCodeAt(key.length - 1).toString(16)}`,
    `${key}%00`,
    `${first}/%0a/${rest}`,
    `${key};x`,
  ]);
  out.delete(key);
  return [...out];
}

interface StoredFile {
  what: string;
  key: string;
  bytes: Buffer;
}

/** Puts `what` at `key` with bytes that name it, so an answer holding them is unmistakable. */
async function put(t: TestApp, what: string, key: string, type = 'application/octet-stream'): Promise<StoredFile> {
  const bytes = Buffer.concat([Buffer.from(`${what} ${randomUUID()} `), randomBytes(64)]);
  await t.app.services.storage.put(key, bytes, type);
  return { what, key, bytes };
}

/** Every file a tour has, stored: the seeded clips and poster, and one of every other kind. */
async function filesOf(t: TestApp, tourId: string, owner: SeededUser): Promise<StoredFile[]> {
  const files: StoredFile[] = [
    ...(await Promise.all(
      ['0000-high.mp4', '0000-low.mp4', '0001-high.mp4', '0001-low.mp4'].map(async (name) => {
        const key = `tours/${tourId}/v1/clips/${name}`;
        const obj = await t.app.services.storage.get(key);
        const chunks: Buffer[] = [];
        for await (const c of obj!.stream) chunks.push(c as Buffer);
        return { what: `clip ${name}`, key, bytes: Buffer.concat(chunks) };
      }),
    )),
  ];
  const poster = `tours/${tourId}/v1/thumbnail.jpg`;
  files.push({ what: 'poster', key: poster, bytes: Buffer.from('not really a jpeg') });
  files.push(await put(t, 'chosen thumbnail', `tours/${tourId}/thumbs/${randomUUID()}.jpg`, 'image/jpeg'));
  files.push(await put(t, 'photo', `tours/${tourId}/shots/${randomUUID()}/original.jpg`, 'image/jpeg'));
  const reel = randomUUID();
  files.push(await put(t, 'reel', `tours/${tourId}/reels/${reel}-a1.mp4`, 'video/mp4'));
  files.push(await put(t, 'reel poster', `tours/${tourId}/reels/${reel}-a1.jpg`, 'image/jpeg'));
  files.push(await put(t, 'photo source (old key)', `tours/${tourId}/photo-source`, 'video/mp4'));
  const original = await put(
    t,
    'photo source',
    `tours/${tourId}/originals/${randomBytes(16).toString('hex')}.mp4`,
    'video/mp4',
  );
  files.push(original);
  await t.app.services.db
    .updateTable('tours')
    .set({ photo_source_key: original.key })
    .where('id', '=', tourId)
    .execute();
  // An original the tour no longer names (replaced) is served to nobody.
  files.push(await put(t, 'replaced photo source', `tours/${tourId}/originals/${randomBytes(16).toString('hex')}.mp4`));
  const upload = await put(t, 'source upload', `uploads/${randomUUID()}.mp4`, 'video/mp4');
  files.push(upload);
  await t.app.services.db
    .insertInto('uploads')
    .values({
      key: upload.key,
      company_id: owner.company.id,
      user_id: owner.user.id,
      extension: 'mp4',
      size: upload.bytes.length,
      tour_id: tourId,
    })
    .execute();
  files.push(await put(t, 'data export', `exports/${owner.user.id}/${randomUUID()}.zip`, 'application/zip'));
  const storage = t.app.services.storage;
  if (storage.kind === 's3') {
    files.push(await put(t, 'staged upload', `staging/uploads/${randomUUID()}.mp4`, 'video/mp4'));
  } else {
    // The local store's multipart staging: its manifest and a part.
    const uploadId = await storage.createMultipart(`uploads/${randomUUID()}.mp4`, 'video/mp4');
    const manifest = path.join(t.dataDir, 'files', 'multipart', uploadId, 'upload.json');
    files.push({
      what: 'multipart manifest',
      key: `multipart/${uploadId}/upload.json`,
      bytes: await fs.readFile(manifest),
    });
  }
  return files;
}

const refused = (a: Answer, f: StoredFile) =>
  (a.status === 403 || a.status === 404) && !a.body.includes(f.bytes.subarray(0, Math.min(40, f.bytes.length)));

/** Runs `jobs` a few at a time. */
async function inBatches<T>(jobs: Array<() => Promise<T>>, width = 8): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < jobs.length; i += width)
    out.push(...(await Promise.all(jobs.slice(i, i + width).map((j) => j()))));
  return out;
}

function storeSuite(name: string, overrides: () => Record<string, string | number>) {
  describe(`stored files behind their tour's rule (${name})`, () => {
    let t: TestApp;
    let owner: SeededUser;
    let member: SeededUser;
    let stranger: SeededUser;
    const tours: Record<'password' | 'company' | 'gated' | 'other' | 'public', { id: string; files: StoredFile[] }> =
      {} as never;

    const setAccess = async (tourId: string, access: string, password?: string) => {
      const r = await t.gql(
        SET_ACCESS,
        { input: { id: `tour_${tourId}`, access, ...(password ? { password } : {}) } },
        owner.token,
      );
      expect(r.errors).toBeUndefined();
    };
    const versionOf = async (tourId: string) =>
      (
        await t.app.services.db
          .selectFrom('tours')
          .select('access_version')
          .where('id', '=', tourId)
          .executeTakeFirstOrThrow()
      ).access_version;

    beforeAll(async () => {
      t = await startTestApp('pglite', { ROLE: 'api', ...overrides() });
      owner = await seedUser(t.app, { plan: 'pro' });
      member = await seedUser(t.app, { companyId: owner.company.id });
      stranger = await seedUser(t.app, { plan: 'pro' });
      for (const kind of ['password', 'company', 'gated', 'other', 'public'] as const) {
        const { row } = await seedProcessedTour(t, owner, 2);
        tours[kind] = { id: row.id, files: await filesOf(t, row.id, owner) };
      }
      await setAccess(tours.password.id, 'PASSWORD', 'open sesame');
      // A second change: a signature of the earlier version must be refused.
      await setAccess(tours.password.id, 'PASSWORD', 'open sesame again');
      await setAccess(tours.company.id, 'COMPANY');
      await setAccess(tours.company.id, 'PASSWORD', 'one two');
      await setAccess(tours.company.id, 'COMPANY');
      await setAccess(tours.other.id, 'PASSWORD', 'other');
      // A public tour with a room gate at frame 40: clip 0001 (frames 36-71) and later are past it.
      const marker = await t.app.services.db
        .insertInto('markers')
        .values({ tour_id: tours.gated.id, name: 'Kitchen', frame_index: 40 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.app.services.db
        .updateTable('tours')
        .set({ lead_gate_marker_id: marker.id })
        .where('id', '=', tours.gated.id)
        .execute();
      accessIndexOf(t.app.services).changed(tours.gated.id);
    }, 180_000);
    afterAll(async () => {
      await t?.stop();
    });

    it.each(['password', 'company', 'gated'] as const)(
      'a %s tour: every file, every spelling, unsigned or with a wrong signature, is refused',
      async (kind) => {
        const tour = tours[kind];
        // A gated public tour: what is before the gate is public (below); the clips past it and the private files are not.
        const files = tour.files.filter(
          (f) => kind !== 'gated' || !/\/(v1|thumbs|shots|reels)\//.test(f.key) || /\/0001-/.test(f.key),
        );
        const version = await versionOf(tour.id);
        const other = tours.other;
        const leaks: string[] = [];
        const jobs: Array<() => Promise<void>> = [];
        for (const [i, f] of files.entries()) {
          const otherKey = other.files[Math.min(i, other.files.length - 1)]!.key;
          const queries: Record<string, string> = {
            unsigned: '',
            'its own signature': mediaSignature(t.app.services, f.key, version),
            "another tour's signature": mediaSignature(t.app.services, otherKey, version),
            'an earlier version': mediaSignature(t.app.services, f.key, version - 1),
            expired: mediaSignature(t.app.services, f.key, version, Date.now() - 4 * 3600_000),
          };
          const isTourFile = /^tours\/[^/]+\/(v1|thumbs|shots|reels)\//.test(f.key);
          for (const [q, query] of Object.entries(queries)) {
            // The canonical key with its own valid signature is the happy path (below) for the tour's own files.
            const paths = q === 'its own signature' && isTourFile ? spellings(f.key) : [f.key, ...spellings(f.key)];
            for (const [n, p] of paths.entries()) {
              jobs.push(async () => {
                const a = await rawGet(t.url, `/media/${p}${query ? `?${query}` : ''}`, {
                  localAddress: ADDRESSES[n % 2],
                });
                if (!refused(a, f)) leaks.push(`${a.status} ${f.what} /media/${p} (${q})`);
              });
            }
          }
        }
        await inBatches(jobs);
        expect(jobs.length).toBeGreaterThan(1500);
        expect(leaks, leaks.slice(0, 30).join('\n')).toEqual([]);
      },
      120_000,
    );

    it('a public tour: its original, its upload, the multipart staging, the export are never served, however spelled', async () => {
      const tour = tours.public;
      const leaks: string[] = [];
      const jobs: Array<() => Promise<void>> = [];
      for (const f of tour.files.filter((x) => !/^tours\/[^/]+\/(v1|thumbs|shots|reels)\//.test(x.key))) {
        for (const p of [f.key, ...spellings(f.key)]) {
          jobs.push(async () => {
            const a = await rawGet(t.url, `/media/${p}`);
            if (!refused(a, f)) leaks.push(`${a.status} ${f.what} /media/${p}`);
          });
        }
      }
      // The public tour's own clips, spelled otherwise, name nothing either (one spelling per object).
      for (const f of tour.files.filter((x) => x.key.includes('/clips/'))) {
        for (const p of spellings(f.key)) {
          jobs.push(async () => {
            const a = await rawGet(t.url, `/media/${p}`);
            if (!refused(a, f)) leaks.push(`${a.status} ${f.what} /media/${p}`);
          });
        }
      }
      await inBatches(jobs);
      expect(leaks, leaks.slice(0, 30).join('\n')).toEqual([]);
    });

    it("a public tour's clip is public; a password tour's or a gated clip signed for a caller is private; from either address", async () => {
      for (const localAddress of ADDRESSES) {
        const clip = tours.public.files[0]!;
        for (const f of [clip, tours.gated.files.find((x) => x.key.endsWith('/0000-high.mp4'))!]) {
          const a = await rawGet(t.url, `/media/${f.key}`, { localAddress });
          expect(a.status).toBe(200);
          expect(a.body.equals(f.bytes)).toBe(true);
          expect(a.headers['cache-control']).toBe('public, max-age=31536000, immutable');
          expect(a.headers['access-control-allow-origin']).toBe('*');
        }

        const signedFiles = [
          ...tours.password.files
            .filter((x) => /\/(v1|thumbs|shots|reels)\//.test(x.key))
            .map((f) => ({ f, tour: tours.password })),
          ...tours.gated.files.filter((x) => /\/0001-/.test(x.key)).map((f) => ({ f, tour: tours.gated })),
        ];
        for (const { f, tour } of signedFiles) {
          const url = new URL(await tourMediaUrlById(t.app.services, tour.id, f.key));
          expect(url.search).toMatch(/^\?e=\d+&v=\d+&s=/);
          const s = await rawGet(t.url, `${url.pathname}${url.search}`, { localAddress });
          expect(s.status, f.what).toBe(200);
          expect(s.body.equals(f.bytes), f.what).toBe(true);
          expect(s.headers['cache-control'], f.what).toBe('private, max-age=3600');
        }
      }
    });

    it("the original and the source upload are served to a member of the tour's company only, never cached", async () => {
      for (const [kind, what] of [
        ['public', 'photo source'],
        ['password', 'photo source'],
        ['company', 'photo source'],
        ['public', 'source upload'],
        ['password', 'source upload'],
      ] as const) {
        const f = tours[kind].files.find((x) => x.what === what)!;
        for (const localAddress of ADDRESSES) {
          for (const who of [owner, member]) {
            const a = await rawGet(t.url, `/media/${f.key}`, {
              localAddress,
              headers: { authorization: `Bearer ${who.token}` },
            });
            expect(a.status, kind).toBe(200);
            expect(a.body.equals(f.bytes)).toBe(true);
            expect(a.headers['cache-control']).toBe('private, no-store');
            expect(a.headers['access-control-allow-origin']).toBeUndefined();
          }
          const theirs = await rawGet(t.url, `/media/${f.key}`, {
            localAddress,
            headers: { authorization: `Bearer ${stranger.token}` },
          });
          expect(theirs.status).toBe(404);
          expect((await rawGet(t.url, `/media/${f.key}`, { localAddress })).status).toBe(404);
          // A member still reads it only at its one spelling.
          for (const p of spellings(f.key)) {
            const a = await rawGet(t.url, `/media/${p}`, {
              localAddress,
              headers: { authorization: `Bearer ${owner.token}` },
            });
            expect(refused(a, f), p).toBe(true);
          }
        }
        // The old key, and an original the tour no longer names, are never served, not even to the owner.
        for (const what of ['photo source (old key)', 'replaced photo source']) {
          const old = tours[kind].files.find((x) => x.what === what)!;
          const a = await rawGet(t.url, `/media/${old.key}`, { headers: { authorization: `Bearer ${owner.token}` } });
          expect(refused(a, old), what).toBe(true);
        }
      }
    });
  });
}

storeSuite('local store', () => ({}));

describe('on S3', () => {
  let server: S3rver;
  let dir: string;
  let endpoint = '';
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-media-keys-s3-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  storeSuite('S3', () => ({
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  }));
});
