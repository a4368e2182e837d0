/** Tour operations: info, thumbnail, delete, reactivate, views, markers, who may do what; and the media route. */
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_TEXTS, VALIDATION } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { gqlUpload, listFiles, Q, seedProcessedTour } from './fixtures/tours.js';

const SAVE = `mutation($input: TourSaveInput!) { tourSave(input: $input) { id title description listingLink videoURL } }`;
const THUMB = `mutation($input: TourUpdateThumbnailInput!) { tourUpdateThumbnailURL(input: $input) { id thumbnailURL } }`;
const REACTIVATE = `mutation($id: ID!) { tourReactivate(id: $id) { id title } }`;
const MARKER_SAVE = `mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id name description tourId frameIndex isFastTravel scrollPosition } }`;
const MARKER_UPDATE = `mutation($input: MarkerUpdateInput!) { markerUpdate(input: $input) { id name description isFastTravel } }`;
const MARKER_DELETE = `mutation($id: ID!) { markerDelete(markerId: $id) { success } }`;
const TOURS = `{ tours(first: 50) { edges { node { id } } } }`;

describe.each(DB_KINDS)('tour operations on %s', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  let member: SeededUser;
  let admin: SeededUser;
  let stranger: SeededUser;
  const code = (r: { errors?: Array<{ extensions?: { code?: string } }> }) => r.errors?.[0]?.extensions?.code;

  beforeAll(async () => {
    t = await startTestApp(kind, { ROLE: 'api' });
    owner = await seedUser(t.app, { plan: 'entry', role: 'USER' });
    member = await seedUser(t.app, { companyId: owner.company.id, role: 'USER' });
    admin = await seedUser(t.app, { companyId: owner.company.id, role: 'ADMIN' });
    stranger = await seedUser(t.app, { plan: 'pro' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  describe('tourSave', () => {
    it('saves title, description and listing link for the owner', async () => {
      const tour = await seedProcessedTour(t, owner);
      const r = await t.gql(
        SAVE,
        {
          input: {
            id: tour.id,
            title: '  12 Oak Lane ',
            description: 'Sunny',
            listingLink: 'https://example.com/l/1',
            videoURL: 'ignored',
          },
        },
        owner.token,
      );
      expect(r.errors).toBeUndefined();
      expect(r.data.tourSave).toMatchObject({
        id: tour.id,
        title: '12 Oak Lane',
        description: 'Sunny',
        listingLink: 'https://example.com/l/1',
      });
    });

    it("validates with the spec's messages", async () => {
      const tour = await seedProcessedTour(t, owner);
      const empty = await t.gql(SAVE, { input: { id: tour.id, title: ' ' } }, owner.token);
      expect(code(empty)).toBe(ERROR_CODES.BAD_USER_INPUT);
      expect(empty.errors?.[0]?.message).toBe(VALIDATION.titleRequired);
      const long = await t.gql(SAVE, { input: { id: tour.id, title: 'x'.repeat(51) } }, owner.token);
      expect(long.errors?.[0]?.message).toBe(VALIDATION.maxChars);
      const desc = await t.gql(
        SAVE,
        { input: { id: tour.id, title: 'ok', description: 'x'.repeat(301) } },
        owner.token,
      );
      expect(desc.errors?.[0]?.message).toBe(VALIDATION.maxChars);
    });

    it('lets a company admin edit, refuses a plain team member, and hides the tour from other companies', async () => {
      const tour = await seedProcessedTour(t, owner);
      expect((await t.gql(SAVE, { input: { id: tour.id, title: 'By admin' } }, admin.token)).errors).toBeUndefined();
      expect(code(await t.gql(SAVE, { input: { id: tour.id, title: 'By member' } }, member.token))).toBe(
        ERROR_CODES.FORBIDDEN,
      );
      expect(code(await t.gql(SAVE, { input: { id: tour.id, title: 'By stranger' } }, stranger.token))).toBe(
        ERROR_CODES.NOT_FOUND,
      );
      expect(code(await t.gql(SAVE, { input: { id: tour.id, title: 'Anonymous' } }))).toBe(ERROR_CODES.UNAUTHENTICATED);
      const row = await t.app.services.db
        .selectFrom('tours')
        .select('title')
        .where('id', '=', tour.row.id)
        .executeTakeFirstOrThrow();
      expect(row.title).toBe('By admin');
    });
  });

  describe('tourUpdateThumbnailURL', () => {
    it('crops any accepted image to a 1280x720 JPEG under a new key and removes the one it replaces', async () => {
      const tour = await seedProcessedTour(t, owner);
      const square = await sharp({ create: { width: 900, height: 900, channels: 3, background: '#3366cc' } })
        .png()
        .toBuffer();
      const r1 = await gqlUpload(
        t,
        owner.token,
        THUMB,
        { input: { id: tour.id, thumbnailURL: null } },
        'input.thumbnailURL',
        { name: 'room.PNG', type: 'image/png', data: square },
      );
      expect(r1.errors).toBeUndefined();
      const url1 = r1.data.tourUpdateThumbnailURL.thumbnailURL as string;
      const res = await fetch(url1);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1280, 720]);

      const jpeg = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#cc6633' } })
        .jpeg()
        .toBuffer();
      const r2 = await gqlUpload(
        t,
        owner.token,
        THUMB,
        { input: { id: tour.id, thumbnailURL: null } },
        'input.thumbnailURL',
        { name: 'room.jpeg', type: 'image/jpeg', data: jpeg },
      );
      const url2 = r2.data.tourUpdateThumbnailURL.thumbnailURL as string;
      expect(url2).not.toBe(url1);
      expect((await fetch(url1)).status).toBe(404);
      expect((await fetch(url2)).status).toBe(200);
      // The thumbnail processing made stays with its clips.
      expect(await t.app.services.storage.head(`tours/${tour.row.id}/v1/thumbnail.jpg`)).not.toBeNull();
    });

    it('refuses other file types, non-images and decompression bombs, keeping the old thumbnail', async () => {
      const tour = await seedProcessedTour(t, owner);
      const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
        .gif()
        .toBuffer();
      const r1 = await gqlUpload(
        t,
        owner.token,
        THUMB,
        { input: { id: tour.id, thumbnailURL: null } },
        'input.thumbnailURL',
        { name: 'a.gif', type: 'image/gif', data: gif },
      );
      expect(code(r1)).toBe(ERROR_CODES.UPLOAD_INVALID);
      const r2 = await gqlUpload(
        t,
        owner.token,
        THUMB,
        { input: { id: tour.id, thumbnailURL: null } },
        'input.thumbnailURL',
        {
          name: 'a.png',
          type: 'image/png',
          data: Buffer.from('<html>not an image</html>'),
        },
      );
      expect(r2.errors?.[0]?.message).toBe('Unable to update thumbnail');
      const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#fff' } })
        .png({ compressionLevel: 9 })
        .toBuffer();
      const r3 = await gqlUpload(
        t,
        owner.token,
        THUMB,
        { input: { id: tour.id, thumbnailURL: null } },
        'input.thumbnailURL',
        { name: 'big.png', type: 'image/png', data: bomb },
      );
      expect(code(r3)).toBe(ERROR_CODES.UPLOAD_INVALID);
      const stranger3 = await gqlUpload(
        t,
        stranger.token,
        THUMB,
        { input: { id: tour.id, thumbnailURL: null } },
        'input.thumbnailURL',
        { name: 'a.png', type: 'image/png', data: gif },
      );
      expect(code(stranger3)).toBe(ERROR_CODES.NOT_FOUND);
      const row = await t.app.services.db
        .selectFrom('tours')
        .select('thumbnail_key')
        .where('id', '=', tour.row.id)
        .executeTakeFirstOrThrow();
      expect(row.thumbnail_key).toBe(`tours/${tour.row.id}/v1/thumbnail.jpg`);
      expect(
        (await listFiles(path.join(t.dataDir, 'files', 'tours', tour.row.id))).filter((f) => f.startsWith('thumbs/')),
      ).toEqual([]);
    });
  });

  describe('tourDelete and tourReactivate', () => {
    it('soft-deletes: files gone, public link answers TOUR_REMOVED, out of the list', async () => {
      const tour = await seedProcessedTour(t, owner);
      expect(code(await t.gql(Q.del, { id: tour.id }, member.token))).toBe(ERROR_CODES.FORBIDDEN);
      expect(code(await t.gql(Q.del, { id: tour.id }, stranger.token))).toBe(ERROR_CODES.NOT_FOUND);
      const r = await t.gql(Q.del, { id: tour.id }, owner.token);
      expect(r.data.tourDelete).toEqual({ success: true });
      expect(await listFiles(path.join(t.dataDir, 'files', 'tours', tour.row.id))).toEqual([]);
      const pub = await t.gql(Q.tour, { id: tour.id });
      expect(code(pub)).toBe(ERROR_CODES.TOUR_REMOVED);
      expect(pub.errors?.[0]?.message).toBe(ERROR_TEXTS.tourRemoved);
      const list = await t.gql(TOURS, {}, owner.token);
      expect(list.data.tours.edges.map((e: { node: { id: string } }) => e.node.id)).not.toContain(tour.id);
      expect(code(await t.gql(Q.del, { id: tour.id }, owner.token))).toBe(ERROR_CODES.NOT_FOUND);
    });

    it('reactivates a deactivated tour while a slot is free, and refuses when none is', async () => {
      const { db } = t.app.services;
      const fresh = await seedUser(t.app, { plan: 'free' }); // one active tour
      const a = await seedProcessedTour(t, fresh);
      const b = await seedProcessedTour(t, fresh);
      await db
        .updateTable('tours')
        .set({ deactivated_at: new Date() })
        .where('id', 'in', [a.row.id, b.row.id])
        .execute();
      const r = await t.gql(REACTIVATE, { id: a.id }, fresh.token);
      expect(r.errors).toBeUndefined();
      expect(r.data.tourReactivate.id).toBe(a.id);
      const refused = await t.gql(REACTIVATE, { id: b.id }, fresh.token);
      expect(code(refused)).toBe(ERROR_CODES.NO_ACTIVE_TOURS_LEFT);
      const rows = await db
        .selectFrom('tours')
        .select(['id', 'deactivated_at'])
        .where('id', 'in', [a.row.id, b.row.id])
        .execute();
      expect(rows.find((x) => x.id === a.row.id)?.deactivated_at).toBeNull();
      expect(rows.find((x) => x.id === b.row.id)?.deactivated_at).not.toBeNull();
      // Reactivating an active tour changes nothing.
      expect((await t.gql(REACTIVATE, { id: a.id }, fresh.token)).errors).toBeUndefined();
    });
  });

  describe('views', () => {
    it("counts visits (the player's beacon), not tour() answers, and counts visits of a deactivated tour apart", async () => {
      const tour = await seedProcessedTour(t, owner);
      const visit = (visitorId: string) =>
        fetch(`${t.url}/tour-visit`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain;charset=UTF-8' },
          body: JSON.stringify({ tourId: tour.id, visitorId }),
        });
      // Answers count nothing, whoever asks.
      await t.gql(Q.tour, { id: tour.id });
      await t.gql(Q.tour, { id: tour.id }, stranger.token);
      await t.gql(Q.tour, { id: tour.id }, member.token);
      expect((await visit('visitor-one-1')).status).toBe(204);
      expect((await visit('visitor-two-2')).status).toBe(204);
      expect((await visit('visitor-one-1')).status).toBe(204); // the same visit
      const seen = await t.gql(Q.tour, { id: tour.id }, owner.token);
      expect(seen.data.tour).toMatchObject({ views: 2, deactivatedViews: 0 });
      await t.app.services.db
        .updateTable('tours')
        .set({ deactivated_at: new Date() })
        .where('id', '=', tour.row.id)
        .execute();
      expect((await visit('visitor-three-3')).status).toBe(204);
      const pub = await t.gql(Q.tour, { id: tour.id });
      // A deactivated tour still plays for links already shared.
      expect(pub.data.tour).toMatchObject({ views: 2, deactivatedViews: 1 });
    });
  });

  describe('markers', () => {
    it("creates, updates and deletes markers within the tour's frames", async () => {
      const tour = await seedProcessedTour(t, owner, 3); // 108 frames: 0..107
      const s = await t.gql(
        MARKER_SAVE,
        {
          input: {
            name: ' Kitchen ',
            description: '',
            tourId: tour.id,
            scrollPosition: 0,
            isFastTravel: true,
            frameIndex: 107,
          },
        },
        owner.token,
      );
      expect(s.errors).toBeUndefined();
      const m = s.data.markerSave;
      expect(m).toMatchObject({
        name: 'Kitchen',
        description: '',
        tourId: tour.id,
        frameIndex: 107,
        isFastTravel: true,
        scrollPosition: 0,
      });
      expect(m.id).toMatch(/^marker_/);

      const u = await t.gql(
        MARKER_UPDATE,
        { input: { id: m.id, name: 'Open-plan Kitchen', description: '', isFastTravel: false } },
        owner.token,
      );
      expect(u.data.markerUpdate).toEqual({
        id: m.id,
        name: 'Open-plan Kitchen',
        description: '',
        isFastTravel: false,
      });
      const listed = await t.gql(Q.tour, { id: tour.id }, owner.token);
      expect(listed.data.tour.markers).toHaveLength(1);

      expect((await t.gql(MARKER_DELETE, { id: m.id }, owner.token)).data.markerDelete).toEqual({ success: true });
      expect((await t.gql(Q.tour, { id: tour.id }, owner.token)).data.tour.markers).toEqual([]);
      expect(code(await t.gql(MARKER_DELETE, { id: m.id }, owner.token))).toBe(ERROR_CODES.NOT_FOUND);
    });

    it("validates name and frame with the spec's messages", async () => {
      const tour = await seedProcessedTour(t, owner, 2); // 72 frames
      const base = { description: '', tourId: tour.id, scrollPosition: 0, isFastTravel: true };
      const empty = await t.gql(MARKER_SAVE, { input: { ...base, name: '  ', frameIndex: 1 } }, owner.token);
      expect(empty.errors?.[0]?.message).toBe(VALIDATION.markerNameEmpty);
      const beyond = await t.gql(MARKER_SAVE, { input: { ...base, name: 'Pool', frameIndex: 72 } }, owner.token);
      expect(code(beyond)).toBe(ERROR_CODES.BAD_USER_INPUT);
      const negative = await t.gql(MARKER_SAVE, { input: { ...base, name: 'Pool', frameIndex: -1 } }, owner.token);
      expect(code(negative)).toBe(ERROR_CODES.BAD_USER_INPUT);
      const ok = await t.gql(MARKER_SAVE, { input: { ...base, name: 'Pool', frameIndex: 71 } }, owner.token);
      const renamed = await t.gql(MARKER_UPDATE, { input: { id: ok.data.markerSave.id, name: '' } }, owner.token);
      expect(renamed.errors?.[0]?.message).toBe(VALIDATION.markerNameEmpty);
    });

    it("refuses markers on an unprocessed tour and on other companies' tours and markers", async () => {
      const tour = await seedProcessedTour(t, owner, 1);
      await t.app.services.db
        .updateTable('tours')
        .set({ status: 'PROCESSING' })
        .where('id', '=', tour.row.id)
        .execute();
      const early = await t.gql(MARKER_SAVE, { input: { name: 'Hall', tourId: tour.id, frameIndex: 0 } }, owner.token);
      expect(code(early)).toBe(ERROR_CODES.TOUR_NOT_PROCESSED);

      const mine = await seedProcessedTour(t, owner, 1);
      const m = (await t.gql(MARKER_SAVE, { input: { name: 'Hall', tourId: mine.id, frameIndex: 0 } }, owner.token))
        .data.markerSave;
      expect(
        code(await t.gql(MARKER_SAVE, { input: { name: 'Hall', tourId: mine.id, frameIndex: 0 } }, stranger.token)),
      ).toBe(ERROR_CODES.NOT_FOUND);
      expect(code(await t.gql(MARKER_UPDATE, { input: { id: m.id, name: 'Mine now' } }, stranger.token))).toBe(
        ERROR_CODES.NOT_FOUND,
      );
      expect(code(await t.gql(MARKER_DELETE, { id: m.id }, stranger.token))).toBe(ERROR_CODES.NOT_FOUND);
      expect(code(await t.gql(MARKER_DELETE, { id: m.id }, member.token))).toBe(ERROR_CODES.FORBIDDEN);
      expect(code(await t.gql(MARKER_DELETE, { id: 'marker_nonsense' }, owner.token))).toBe(ERROR_CODES.NOT_FOUND);
    });
  });

  describe('tourProgressUpdated', () => {
    it("is for members of the tour's company only", async () => {
      const tour = await seedProcessedTour(t, owner, 1);
      const client = t.wsClient(stranger.token);
      const err = await new Promise<unknown>((resolve) => {
        client.subscribe(
          { query: Q.progress, variables: { id: tour.id } },
          { next: (v) => resolve(v.errors), error: resolve, complete: () => resolve(null) },
        );
      });
      expect(JSON.stringify(err)).toContain(ERROR_CODES.NOT_FOUND);
    });
  });

  describe('media route', () => {
    it('serves clips with ranges, ETags, immutable caching and open CORS', async () => {
      const tour = await seedProcessedTour(t, owner, 1);
      const r = await t.gql(Q.tour, { id: tour.id });
      const url = r.data.tour.clips[0].highURI as string;
      const full = await fetch(url, { headers: { Origin: 'https://listing.example' } });
      expect(full.status).toBe(200);
      expect(full.headers.get('content-type')).toBe('video/mp4');
      expect(full.headers.get('content-length')).toBe('1000');
      expect(full.headers.get('accept-ranges')).toBe('bytes');
      expect(full.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(full.headers.get('access-control-allow-origin')).toBe('*');
      expect(full.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect((await full.arrayBuffer()).byteLength).toBe(1000);
      const etag = full.headers.get('etag')!;
      expect(etag).toMatch(/^".+"$/);

      const part = await fetch(url, { headers: { Range: 'bytes=100-199' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe('bytes 100-199/1000');
      expect((await part.arrayBuffer()).byteLength).toBe(100);
      const tail = await fetch(url, { headers: { Range: 'bytes=-10' } });
      expect(tail.headers.get('content-range')).toBe('bytes 990-999/1000');
      await tail.arrayBuffer();
      const open = await fetch(url, { headers: { Range: 'bytes=990-' } });
      expect(open.headers.get('content-range')).toBe('bytes 990-999/1000');
      await open.arrayBuffer();
      const bad = await fetch(url, { headers: { Range: 'bytes=5000-6000' } });
      expect(bad.status).toBe(416);
      expect(bad.headers.get('content-range')).toBe('bytes */1000');

      const cached = await fetch(url, { headers: { 'If-None-Match': etag } });
      expect(cached.status).toBe(304);
      const head = await fetch(url, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe('1000');
      expect(await head.text()).toBe('');
    });

    it('answers 404 to unknown keys, metadata files and path traversal', async () => {
      expect(
        (await fetch(`${t.url}/media/tours/00000000-0000-4000-8000-000000000000/v1/clips/0000-high.mp4`)).status,
      ).toBe(404);
      const tour = await seedProcessedTour(t, owner, 1);
      expect((await fetch(`${t.url}/media/tours/${tour.row.id}/v1/clips/0000-high.mp4.meta`)).status).toBe(404);
      for (const p of [
        '/media/..%2f..%2fdev-secret',
        '/media/%2e%2e/dev-secret',
        '/media//etc/passwd',
        '/media/tours/..%5c..%5cdev-secret',
      ]) {
        const res = await fetch(`${t.url}${p}`);
        expect(res.status, p).toBe(404);
      }
    });
  });
});
