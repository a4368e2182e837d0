// A tiny stand-in for the Roomwalk API: answers the player's GraphQL calls from fixtures,
// serves clip files cross-origin, speaks graphql-ws for the AI markers subscription, and
// has /__* control routes for tests. The element must not tell it from the real server.
import { createServer } from 'node:http';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { WebSocketServer } from 'ws';
import { FIXTURES_DIR } from './fixtures.mjs';

export const TOURS = {
  main: 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d10',
  edit: 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d11',
  portrait: 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d12',
  broken: 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d13',
  slow: 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d14',
  removed: 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d15',
  missing: 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d16',
  failing: 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d17',
  other: 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d18',
  bframes: 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d19',
};

/** The real server's answer to a failure of its own (ERROR_TEXTS.unexpected, ERROR_CODES.INTERNAL). */
export const INTERNAL_ERROR = { message: 'Something went wrong. Please try again.', code: 'INTERNAL' };

const INITIAL_MARKERS = [
  { id: 'm-kitchen', name: 'Kitchen', frameIndex: 40 },
  { id: 'm-entrance', name: 'Entrance', frameIndex: 0 },
  { id: 'm-bedroom', name: 'Bedroom', frameIndex: 100 },
];

/** extraTours maps more tour ids to fixture folder names (the benchmark's generated tours). */
export async function startStub({ port = 0, host = '127.0.0.1', extraTours = {} } = {}) {
  let origin = '';
  let markers = {};
  let log = [];
  let failNext = {};
  let seq = 0;
  /** Clip paths requested since the last reset, and a pattern of clip paths whose answers are held (POST /__hold). */
  let clipLog = [];
  /** Visit beacons (POST /tour-visit) since the last reset: { body, contentType }. */
  let visitLog = [];
  let hold = null;
  const held = [];
  /**
   * Changes on every reset, in the clip URLs: a test's clips are not answered by the browser's cache from an earlier
   * test.
   */
  let epoch = 0;
  const subs = new Set();
  const reset = () => {
    markers = {};
    for (const key of ['main', 'edit', 'portrait', 'other', 'slow']) {
      markers[TOURS[key]] = INITIAL_MARKERS.map((m) => ({
        ...m,
        id: `${m.id}-${key}`,
        description: '',
        tourId: TOURS[key],
        scrollPosition: 0,
        isFastTravel: true,
      }));
    }
    log = [];
    failNext = {};
    clipLog = [];
    visitLog = [];
    epoch++;
    hold = null;
    for (const release of held.splice(0)) release();
  };
  reset();

  const fixtureTours = {};
  const readFixture = (name) => {
    if (!fixtureTours[name])
      fixtureTours[name] = JSON.parse(readFileSync(join(FIXTURES_DIR, name, 'tour.json'), 'utf8'));
    return fixtureTours[name];
  };

  const tourJson = (id) => {
    const extra = extraTours[id];
    const key = extra ? 'extra' : Object.entries(TOURS).find(([, v]) => v === id)?.[0];
    if (!key || key === 'missing') return { error: { message: 'Tour not found', code: 'NOT_FOUND' } };
    if (key === 'removed') return { error: { message: 'Tour removed', code: 'TOUR_REMOVED' } };
    // As the real server words a failure of its own (packages/server/src/graphql/errors.ts toClientError; the parity
    // test packages/server/test/player-stub-parity.test.ts compares them).
    if (key === 'failing') return { error: { message: INTERNAL_ERROR.message, code: INTERNAL_ERROR.code } };
    const fixture = extra ?? (key === 'portrait' ? 'portrait' : key === 'bframes' ? 'bframes' : 'main');
    const f = readFixture(fixture);
    const portrait = fixture === 'portrait';
    const clips = f.clips.map((c) => ({
      id: `clip-${c.index}`,
      index: c.index,
      frameCount: c.frameCount,
      duration: c.duration,
      highURI:
        key === 'broken' && c.index === 0
          ? `${origin}/clips/broken/garbage.mp4`
          : key === 'slow'
            ? `${origin}/hang/${c.high}`
            : `${origin}/clips/${fixture}/${c.high}?epoch=${epoch}`,
      lowURI:
        key === 'broken' && c.index === 0
          ? `${origin}/clips/broken/garbage.mp4`
          : key === 'slow'
            ? `${origin}/hang/${c.low}`
            : `${origin}/clips/${fixture}/${c.low}?epoch=${epoch}`,
    }));
    return {
      tour: {
        id,
        title: portrait ? 'Portrait Cottage' : 'Seaside Villa',
        description: key === 'main' ? 'A bright villa by the sea.' : null,
        thumbnailURL: `${origin}/thumb.png`,
        tourIntroLogoURL: null,
        tourAccentColor: null,
        listingLink: 'https://example.com/listing/1',
        views: 3,
        status: { status: 'PROCESSED' },
        videoInfo: portrait
          ? { width: 720, height: 1280, fullSize: 0, mediumSize: 0, smallSize: 0 }
          : { width: 1280, height: 720, fullSize: 0, mediumSize: 0, smallSize: 0 },
        clips,
        markers: markers[id] ?? [],
        agentProfile: {
          fullname: 'Ann Agent',
          contactNumber: '+27 82 555 0100',
          email: 'ann@example.com',
          profileImageURL: null,
        },
        leadGate: null,
      },
    };
  };

  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'content-type, authorization',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
  };
  const send = (res, status, body, headers = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...cors, ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const gqlError = (message, code) => ({ data: null, errors: [{ message, extensions: { code } }] });
  const readBody = (req) =>
    new Promise((resolve) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });

  const handleGraphQL = (body, authorization) => {
    const { query = '', variables = {} } = body;
    const op = /tourLeadCreate/.test(query)
      ? 'tourLeadCreate'
      : /markerSave/.test(query)
        ? 'markerSave'
        : /markerUpdate/.test(query)
          ? 'markerUpdate'
          : /markerDelete/.test(query)
            ? 'markerDelete'
            : /tourGenerateAIMarkers/.test(query)
              ? 'tourGenerateAIMarkers'
              : /tour\(/.test(query)
                ? 'tour'
                : 'unknown';
    log.push({ op, variables, authorization: authorization ?? null });
    if (failNext[op]) {
      const f = failNext[op];
      delete failNext[op];
      return gqlError(f.message, f.code ?? 'BAD_REQUEST');
    }
    if (op === 'tour') {
      const r = tourJson(variables.tourID);
      return r.error ? gqlError(r.error.message, r.error.code) : { data: { tour: r.tour } };
    }
    if (op === 'tourLeadCreate') {
      const i = variables.input;
      if (!i?.turnstileToken) return gqlError('Please complete the human check.', 'BAD_USER_INPUT');
      const tourLead = {
        id: `lead-${++seq}`,
        name: i.name,
        surname: i.surname ?? null,
        email: i.email,
        contactNumber: i.contactNumber ?? null,
        leadType: i.leadType,
        tourId: i.tourId,
      };
      const viewingSessionRequest = {
        signalingToken: 'e30.eyJzaWQiOiJzZXNzaW9uLTEifQ.x',
        rtcToken: null,
        appId: null,
        viewingSessionUserId: `viewer-${seq}`,
        expireTime: new Date(Date.now() + 3_600_000).toISOString(),
      };
      // The stub keeps no lead gate: a lead's gate answer is null, as the real server's is for a tour without one.
      return { data: { tourLeadCreate: { tourLead, viewingSessionRequest, gate: null } } };
    }
    if (op !== 'unknown' && authorization !== 'Bearer test-token')
      return gqlError('Please log in to continue.', 'UNAUTHENTICATED');
    if (op === 'markerSave') {
      const i = variables.input;
      const m = {
        id: `m-new-${++seq}`,
        name: i.name,
        description: i.description,
        tourId: i.tourId,
        scrollPosition: i.scrollPosition,
        frameIndex: i.frameIndex,
        isFastTravel: i.isFastTravel,
      };
      markers[i.tourId] ??= [];
      markers[i.tourId].push(m);
      return { data: { markerSave: m } };
    }
    if (op === 'markerUpdate') {
      const i = variables.input;
      for (const list of Object.values(markers))
        for (const m of list)
          if (m.id === i.id)
            Object.assign(m, { name: i.name, description: i.description, isFastTravel: i.isFastTravel });
      return { data: { markerUpdate: { id: i.id, name: i.name, description: i.description } } };
    }
    if (op === 'markerDelete') {
      for (const k of Object.keys(markers)) markers[k] = markers[k].filter((m) => m.id !== variables.markerId);
      return { data: { markerDelete: { success: true } } };
    }
    if (op === 'tourGenerateAIMarkers') return { data: { tourGenerateAIMarkers: markers[variables.tourId] ?? [] } };
    return gqlError('Unknown operation', 'BAD_REQUEST');
  };

  // Optional network shaping (the benchmark's Slow 4G): one RTT before each response (two on a
  // new connection, for the handshake) and a shared downstream rate for all bodies.
  let shape = null;
  let nextFree = 0;
  const shapedSockets = new WeakSet();
  const delay = (ms) => new Promise((r) => setTimeout(r, ms));
  const shapeResponse = async (req, res) => {
    if (!shape) return;
    const rtts = shapedSockets.has(req.socket) ? 1 : 2;
    shapedSockets.add(req.socket);
    await delay(shape.latencyMs * rtts);
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    const paced = async (chunk) => {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk ?? '');
      for (let i = 0; i < buf.length; i += 16 * 1024) {
        // An aborted response stops using the link (the browser cancelled the fetch).
        if (!shape || res.destroyed || req.socket.destroyed) return;
        const part = buf.subarray(i, i + 16 * 1024);
        const now = Date.now();
        const start = Math.max(now, nextFree);
        nextFree = start + (part.length / shape.bytesPerSec) * 1000;
        if (nextFree > now) await delay(nextFree - now);
        write(part);
      }
    };
    res.end = (chunk) => {
      void paced(chunk).then(() => end());
      return res;
    };
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, origin || 'http://x');
    if (url.pathname === '/__shape') {
      shape = JSON.parse(await readBody(req));
      nextFree = 0;
      return send(res, 200, { ok: true });
    }
    await shapeResponse(req, res);
    if (req.method === 'OPTIONS') return send(res, 204, '');
    if (url.pathname === '/query' && req.method === 'GET') {
      // GraphQL over GET (the player's public tour query without a session).
      let variables;
      try {
        variables = JSON.parse(url.searchParams.get('variables') || '{}');
      } catch {
        return send(res, 400, gqlError('Bad JSON', 'BAD_REQUEST'));
      }
      return send(
        res,
        200,
        handleGraphQL({ query: url.searchParams.get('query') ?? '', variables }, req.headers.authorization),
      );
    }
    if (url.pathname === '/query' && req.method === 'POST') {
      let body;
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return send(res, 400, gqlError('Bad JSON', 'BAD_REQUEST'));
      }
      return send(res, 200, handleGraphQL(body, req.headers.authorization));
    }
    if (url.pathname === '/__reset') {
      reset();
      return send(res, 200, { ok: true });
    }
    if (url.pathname === '/__log') return send(res, 200, log);
    if (url.pathname === '/__clips') return send(res, 200, clipLog);
    if (url.pathname === '/__visits') return send(res, 200, visitLog);
    if (url.pathname === '/tour-visit' && req.method === 'POST') {
      visitLog.push({ body: await readBody(req), contentType: req.headers['content-type'] ?? null });
      res.writeHead(204);
      return res.end();
    }
    if (url.pathname === '/__hold') {
      // { pattern } holds the answers of matching clip paths until { pattern: null } releases them.
      const b = JSON.parse(await readBody(req));
      hold = b.pattern ? new RegExp(b.pattern) : null;
      if (!hold) for (const release of held.splice(0)) release();
      return send(res, 200, { ok: true });
    }
    if (url.pathname === '/__fail') {
      const b = JSON.parse(await readBody(req));
      failNext[b.op] = b;
      return send(res, 200, { ok: true });
    }
    if (url.pathname === '/__subs') return send(res, 200, { count: subs.size });
    if (url.pathname === '/__ai-event') {
      const b = JSON.parse(await readBody(req));
      for (const s of subs)
        if (s.tourId === b.tourId)
          s.ws.send(
            JSON.stringify({ id: s.id, type: 'next', payload: { data: { tourGenerateAIMarkersUpdated: b.event } } }),
          );
      if (b.event?.action === 'ADD' && b.event.marker && b.persist) {
        markers[b.tourId] ??= [];
        markers[b.tourId].push({ ...b.event.marker, description: '', tourId: b.tourId, scrollPosition: 0 });
      }
      return send(res, 200, { ok: true });
    }
    if (url.pathname === '/thumb.png') {
      // 1x1 grey PNG.
      const png = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNoAAAAggCBd81ytgAAAABJRU5ErkJggg==',
        'base64',
      );
      res.writeHead(200, { 'content-type': 'image/png', ...cors });
      return res.end(png);
    }
    if (url.pathname === '/host-frame.html') {
      // Posts one host message to the parent from this (other) origin.
      const type = url.searchParams.get('type');
      const frameIndex = Number(url.searchParams.get('frameIndex'));
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(
        `<!doctype html><script>parent.postMessage(${JSON.stringify({ type, frameIndex })}, '*');parent.postMessage({type:'host-frame-done'}, '*');</script>`,
      );
    }
    if (url.pathname.startsWith('/hang/')) return; // never answers: the "taking a while" path
    if (url.pathname.startsWith('/clips/')) {
      clipLog.push(url.pathname);
      if (hold?.test(url.pathname)) await new Promise((release) => held.push(release));
      const file = normalize(join(FIXTURES_DIR, url.pathname.slice('/clips/'.length)));
      if (!file.startsWith(FIXTURES_DIR) || !existsSync(file) || !statSync(file).isFile())
        return send(res, 404, { error: 'not found' });
      const data = readFileSync(file);
      const headers = {
        'content-type': 'video/mp4',
        'content-length': data.length,
        'cache-control': 'public, max-age=3600',
        'accept-ranges': 'bytes',
        ...cors,
      };
      const range = req.headers.range && /bytes=(\d+)-(\d*)/.exec(req.headers.range);
      if (range) {
        const start = Number(range[1]);
        const end = range[2] ? Number(range[2]) : data.length - 1;
        res.writeHead(206, {
          ...headers,
          'content-length': end - start + 1,
          'content-range': `bytes ${start}-${end}/${data.length}`,
        });
        return res.end(data.subarray(start, end + 1));
      }
      res.writeHead(200, headers);
      return res.end(data);
    }
    send(res, 404, { error: 'not found' });
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (!req.url.startsWith('/query')) return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      let authorized = false;
      const mine = new Set();
      ws.on('message', (raw) => {
        const msg = JSON.parse(String(raw));
        if (msg.type === 'connection_init') {
          authorized = msg.payload?.authorization === 'Bearer test-token';
          if (!authorized) return ws.close(4403, 'Forbidden');
          ws.send(JSON.stringify({ type: 'connection_ack' }));
        } else if (msg.type === 'subscribe' && authorized) {
          const s = { ws, id: msg.id, tourId: msg.payload.variables.tourId };
          subs.add(s);
          mine.add(s);
        } else if (msg.type === 'complete') {
          for (const s of mine) if (s.id === msg.id) subs.delete(s);
        }
      });
      ws.on('close', () => {
        for (const s of mine) subs.delete(s);
      });
    });
  });

  await new Promise((resolve) => server.listen(port, host, resolve));
  origin = `http://${host}:${server.address().port}`;
  return {
    origin,
    stop: () =>
      new Promise((resolve) => {
        for (const c of wss.clients) c.terminate();
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
