// In-page side of the benchmark: every figure is read from canvas pixels (the frame barcode and
// the low-rendition corner box), never from the element's events.
const raf = () => new Promise((r) => requestAnimationFrame(r));

// The player's canvas shows worker-made bitmaps through a 'bitmaprenderer' context, which cannot be read itself: it is
// copied at its own size into this scratch canvas first (a bitmap smaller than the canvas is scaled, as on screen),
// clipped to what is read (the barcode row, the fine-line patch, the middle row) so the copy costs little.
const scratch = document.createElement('canvas');
const scratchCtx = scratch.getContext('2d', { willReadFrequently: true });
function snapshot(canvas) {
  const w = canvas.width;
  const h = canvas.height;
  if (scratch.width !== w || scratch.height !== h) {
    scratch.width = w;
    scratch.height = h;
  }
  const sx = w / 1280;
  const sy = h / 720;
  scratchCtx.save();
  scratchCtx.beginPath();
  scratchCtx.rect(0, Math.floor(20 * sy) - 1, Math.ceil(640 * sx) + 1, 3);
  scratchCtx.rect(
    Math.floor((1280 - 200) * sx),
    Math.floor((720 - 120) * sy),
    Math.ceil(160 * sx) + 1,
    Math.ceil(80 * sy) + 1,
  );
  scratchCtx.rect(0, Math.floor(h / 2) - 1, w, 3);
  scratchCtx.clip();
  scratchCtx.drawImage(canvas, 0, 0, w, h);
  scratchCtx.restore();
  return scratchCtx;
}

/**
 * Which frame and rendition the canvas shows: the frame's 16-bit barcode, and the fine-line patch's luma contrast
 * (test/fixtures.mjs PATCH: the 360p rendition averages its one-pixel lines to flat grey; as test/helpers.ts
 * showsLowRendition, below 10 is 360p).
 */
function readFrame(canvas, ctx = snapshot(canvas)) {
  const sx = canvas.width / 1280,
    sy = canvas.height / 720;
  const y = Math.floor(20 * sy);
  const row = ctx.getImageData(0, y, Math.ceil(640 * sx), 1).data;
  let n = 0;
  for (let k = 0; k < 16; k++) {
    const x = Math.floor((40 * k + 20) * sx);
    if (row[x * 4] * 0.3 + row[x * 4 + 1] * 0.59 + row[x * 4 + 2] * 0.11 > 128) n |= 1 << k;
  }
  const d = ctx.getImageData(
    Math.ceil((1280 - 190) * sx),
    Math.ceil((720 - 110) * sy),
    Math.floor(140 * sx),
    Math.floor(60 * sy),
  ).data;
  let sum = 0,
    squares = 0;
  for (let i = 0; i < d.length; i += 4) {
    const l = d[i] * 0.3 + d[i + 1] * 0.59 + d[i + 2] * 0.11;
    sum += l;
    squares += l * l;
  }
  const m = d.length / 4;
  const detail = Math.sqrt(Math.max(0, squares / m - (sum / m) ** 2));
  return { frame: n, low: detail < 10 };
}

let player, canvas;
const longTasks = [];
const loafs = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      loafs.push({
        d: Math.round(e.duration),
        block: Math.round(e.blockingDuration),
        render: Math.round(e.renderStart ? e.startTime + e.duration - e.renderStart : 0),
        scripts: e.scripts.map((s) => `${s.invoker}:${Math.round(s.duration)}`).slice(0, 3),
      });
    }
  }).observe({ type: 'long-animation-frame', buffered: false });
} catch {
  /* not supported */
}
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longTasks.push(e.duration);
}).observe({ type: 'longtask', buffered: true });

// The player's workers, recorded as it starts them (the first-frame breakdown, firstFrameTimeline): when each was
// made and first answered. Their own marks (src/workers/timeline.ts) are asked through comlink's wire format, which
// the workers speak: a GET of `timeline`, answered under the asker's id, which the player's own comlink ignores.
const epoch = () => performance.timeOrigin + performance.now();
const playerWorkers = [];
const NativeWorker = window.Worker;
window.Worker = class extends NativeWorker {
  constructor(url, options) {
    super(url, options);
    if (!options?.name?.startsWith('tour-')) return;
    const w = { worker: this, name: options.name.slice(5), made: epoch(), answered: 0 };
    this.addEventListener('message', () => (w.answered ||= epoch()), { once: true });
    playerWorkers.push(w);
  }

  // The player's calls to its decode workers (comlink's wire format): when each decode, keyframe and cancel was posted,
  // for the jump breakdown (jumpBreakdown).
  postMessage(message, transfers) {
    const m = message;
    if (m?.type === 'APPLY' && ['decode', 'keyframe', 'cancel'].includes(m.path?.[0])) {
      const arg = m.argumentList?.[0]?.value;
      posted.push({
        t: epoch(),
        method: m.path[0],
        worker: this,
        ...(typeof arg === 'object' ? { req: arg } : { id: arg }),
      });
      if (posted.length > 4000) posted.splice(0, 2000);
    }
    return super.postMessage(message, transfers);
  }
};
/** Decode, keyframe and cancel calls posted to the decode workers (epoch ms). */
const posted = [];
/**
 * Decoded batches as the main thread's comlink took them (a proxied callback's APPLY on a MessagePort): epoch ms when
 * the message came and when its handler returned, and its frames ([rendition, clip, frame]).
 */
const received = [];
const nativeAddListener = MessagePort.prototype.addEventListener;
MessagePort.prototype.addEventListener = function (type, listener, options) {
  if (type !== 'message' || typeof listener !== 'function')
    return nativeAddListener.call(this, type, listener, options);
  return nativeAddListener.call(
    this,
    type,
    function (e) {
      const frames = e.data?.type === 'APPLY' ? e.data.argumentList?.[0]?.value : undefined;
      if (!Array.isArray(frames) || !frames[0]?.rendition) return listener.call(this, e);
      const t = epoch();
      try {
        return listener.call(this, e);
      } finally {
        received.push({ t, done: epoch(), frames: frames.map((f) => [f.rendition, f.clipIndex, f.frame]) });
        if (received.length > 4000) received.splice(0, 2000);
      }
    },
    options,
  );
};
function askWorker(worker, path) {
  const id = `bench-ask-${Math.random()}`;
  return new Promise((resolve) => {
    const answered = (e) => {
      if (e.data?.id !== id) return;
      worker.removeEventListener('message', answered);
      resolve(e.data.value);
    };
    worker.addEventListener('message', answered);
    NativeWorker.prototype.postMessage.call(worker, { id, type: 'GET', path });
    setTimeout(() => resolve(undefined), 3000);
  });
}
/** The last jumps() run: per jump its target, start and exact-frame time (epoch ms). */
let lastJumps = [];
/** The last rests() run, the same per rest (start: the last key step). */
let lastRests = [];
/** Bitmaps put on the player's canvas (epoch ms, width), and the page's refreshes while a jump or a rest waits. */
const paints = [];
const nativeTransfer = ImageBitmapRenderingContext.prototype.transferFromImageBitmap;
ImageBitmapRenderingContext.prototype.transferFromImageBitmap = function (bitmap) {
  paints.push([epoch(), bitmap?.width ?? 0]);
  if (paints.length > 4000) paints.splice(0, 2000);
  return nativeTransfer.call(this, bitmap);
};
/** The bench tour's clips are 36 frames each (test/fixtures.mjs CLIP_FRAMES): a tour frame's clip and frame in it. */
const CLIP_FRAMES = 36;
/** The last firstFrame run: its start (epoch ms), when the player said ready and when the pixels showed frame 0. */
let firstRun;

window.bench = {
  async load(tourId, api, size = { width: 1000, height: 600 }, waitBuffered = true) {
    document.querySelector('tour-player')?.remove();
    player = document.createElement('tour-player');
    player.setAttribute('tour-id', tourId);
    player.setAttribute('api', api);
    player.setAttribute('disabled-controls', 'markers');
    player.setAttribute('host-events', '');
    player.style.cssText = `display:block;width:${size.width}px;height:${size.height}px`;
    const ready = new Promise((r) => player.addEventListener('tour-ready', r, { once: true }));
    document.body.append(player);
    await ready;
    canvas = player.shadowRoot.querySelector('canvas');
    const t0 = performance.now();
    if (waitBuffered)
      while (player.loadedFrameCount < player.totalFrames && performance.now() - t0 < 120000) await raf();
    return { total: player.totalFrames, canvas: [canvas.width, canvas.height] };
  },

  /**
   * One keyboard step per animation frame; a step counts when the exact 720p frame is on the canvas at the next frame.
   */
  async scrub(start, steps, dir, wantHigh = true) {
    await Promise.race([player.goToFrame(start), new Promise((r) => setTimeout(r, 10000))]);
    canvas.focus();
    await raf();
    longTasks.length = 0;
    loafs.length = 0;
    let ok = 0,
      lowShown = 0,
      stale = 0;
    let expected = start;
    const key = dir > 0 ? 'ArrowRight' : 'ArrowLeft';
    const t0 = performance.now();
    for (let i = 0; i < steps; i++) {
      expected += dir;
      canvas.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true }));
      await raf();
      const r = readFrame(canvas);
      if (r.frame === expected && r.low !== wantHigh) ok++;
      else if (r.frame === expected) lowShown++;
      else stale++;
    }
    return {
      steps,
      ok,
      lowShown,
      stale,
      ms: performance.now() - t0,
      longTaskMax: longTasks.length ? Math.max(...longTasks) : 0,
      longTasks: longTasks.length,
      loaf: [...loafs].sort((a, b) => b.block - a.block),
    };
  },

  /** Programmatic jumps: time to a placeholder from the target's neighbourhood and to the exact 720p frame. */
  async jumps(targets, wantHigh = true) {
    const exact = [],
      placeholder = [],
      placeholderFrames = [];
    lastJumps = [];
    for (const t of targets) {
      await raf();
      const run = { target: t, start: epoch(), seen: 0, from: player.currentFrame, refreshes: [] };
      lastJumps.push(run);
      const t0 = performance.now();
      const done = player.goToFrame(t);
      let placed = 0,
        frames = 0,
        placedAt = 0;
      for (;;) {
        await raf();
        run.refreshes.push(epoch());
        frames++;
        const r = readFrame(canvas);
        const now = performance.now() - t0;
        if (!placed && Math.abs(r.frame - t) <= 36) {
          placed = now;
          placedAt = frames;
        }
        if (r.frame === t && r.low !== wantHigh) {
          exact.push(now);
          run.seen = epoch();
          break;
        }
        if (now > 5000) {
          exact.push(now);
          break;
        }
      }
      placeholder.push(placed || 5000);
      placeholderFrames.push(placedAt || 999);
      await done;
    }
    return { exact, placeholder, placeholderFrames };
  },

  /**
   * Where the last jumps() run's time went, per jump: ms from goToFrame to each step of its 720p decode (the request
   * that carries the target as its urgent frame): posted by the main thread, reached the worker, started there (after
   * what was queued before it on that worker), its clip demuxed, the samples from the keyframe fed, the target out of
   * the decoder, copied, made a bitmap, its batch sent, taken by the main thread, seen on the canvas. Also what else the
   * workers were doing meanwhile (other decodes started, cancels).
   */
  async jumpBreakdown(kind = 'jumps') {
    const decoders = playerWorkers.filter((w) => w.name === 'decode');
    const traces = new Map();
    for (const [k, w] of decoders.entries()) {
      for (const [t, event, id, detail] of (await askWorker(w.worker, ['trace'])) ?? []) {
        if (!traces.has(id)) traces.set(id, { worker: k, events: [] });
        traces.get(id).events.push([t, event, detail]);
      }
    }
    const list = kind === 'rests' ? lastRests : lastJumps;
    // The paint worker's requests ([t, event, id, tour frame]): which bitmaps it made while the target waited.
    const paintWorker = playerWorkers.find((w) => w.name === 'paint');
    const paintTrace = (paintWorker && (await askWorker(paintWorker.worker, ['trace']))) ?? [];
    return list.map((j, n) => {
      const end = list[n + 1]?.start ?? Infinity;
      const clip = Math.floor(j.target / CLIP_FRAMES);
      const local = j.target - clip * CLIP_FRAMES;
      const covers = (p) =>
        p.method === 'decode' &&
        p.req?.rendition === 'high' &&
        p.req.clipIndex === clip &&
        p.req.from <= local &&
        local <= p.req.to;
      const at = (t) => (t === undefined ? null : Math.round(t - j.start));
      const inJump = posted.filter((p) => p.t >= j.start && p.t < end);
      // The 720p decode that brought the target: posted during the wait, else the last posted before it (a pass that was
      // already running when the jump or the rest began).
      const jumpReq = inJump.find(covers) ?? posted.filter((p) => p.t < j.start && covers(p)).at(-1);
      const rows = [];
      const others = [];
      for (const p of inJump) {
        if (p === jumpReq) continue;
        const what =
          p.method === 'cancel'
            ? `cancel ${p.id}`
            : `${p.method} ${p.req.rendition} c${p.req.clipIndex} ${p.req.from}-${p.req.to} #${p.req.id}`;
        if (p.t <= (j.seen || end)) others.push([what, at(p.t)]);
        // A cancelled decode: when its worker ended it (a reset decoder), which frees that worker for the jump's pass.
        const ended = p.method === 'cancel' ? traces.get(p.id)?.events.find((e) => e[1] === 'end') : undefined;
        if (ended && ended[0] <= (j.seen || end))
          others.push([`#${p.id} ended (w${traces.get(p.id).worker})`, at(ended[0])]);
      }
      if (jumpReq) {
        const req = jumpReq.req;
        rows.push([
          'posted',
          at(jumpReq.t),
          `#${req.id} high c${req.clipIndex} ${req.from}-${req.to} urgent ${req.urgent} target ${local}`,
        ]);
        const tr = traces.get(req.id);
        for (const [t, event, detail] of tr?.events ?? []) {
          const note =
            event === 'from'
              ? `sample ${detail}: ${local - detail + 1} frames to the target`
              : event === 'fed'
                ? `queue ${detail}`
                : event === 'cancel'
                  ? `running ${detail}`
                  : `w${tr.worker}`;
          rows.push([event, at(t), note]);
        }
        // What ran on that worker before it (queued ahead): the events of other requests between posting and its run.
        const got = received.find(
          (r) => r.t >= jumpReq.t && r.frames.some(([rd, c, f]) => rd === 'high' && c === clip && f === local),
        );
        if (got) rows.push(['main took', at(got.t)], ['main returned', at(got.done)]);
        const ranAt = tr?.events.find((e) => e[1] === 'run')?.[0];
        if (tr && ranAt !== undefined) {
          for (const [id, o] of traces) {
            if (o.worker !== tr.worker || id === req.id) continue;
            for (const [t, event] of o.events)
              if (t >= jumpReq.t && t <= ranAt && ['end', 'run', 'cancel'].includes(event))
                others.push([`w${o.worker} #${id} ${event}`, at(t)]);
          }
        }
      }
      // The page's canvas: the bitmaps put on it meanwhile (width: 720p at the canvas's, 360p at 640 or less) and the last
      // refresh before the one that saw the target.
      const painted = paints.filter(([t]) => t >= j.start && t <= (j.seen || end));
      if (painted.length) rows.push(['last paint', at(painted.at(-1)[0]), `w ${painted.at(-1)[1]}`]);
      const before = j.refreshes.filter((t) => t < (j.seen || end)).at(-1);
      if (before !== undefined) rows.push(['refresh before', at(before)]);
      const gaps = j.refreshes.map((t, k) => t - (j.refreshes[k - 1] ?? j.start));
      if (gaps.length) others.push([`refreshes ${gaps.length}, longest gap ${Math.round(Math.max(...gaps))} ms`, 0]);
      for (const [t, w] of painted) others.push([`paint w${w}`, at(t)]);
      // The paint worker meanwhile: the bitmaps it made (their frames) before the target's, and when the target's was
      // asked, made.
      const stop = j.seen || end;
      const pw = paintTrace.filter(([t]) => t >= j.start - 50 && t <= stop);
      const askT = pw.find(([, e, , f]) => e.startsWith('ask') && f === j.target);
      if (askT) rows.push([`paint ${askT[1]}`, at(askT[0])]);
      const askedBefore = paintTrace
        .filter(([t, e, , f]) => e.startsWith('ask') && f === j.target && t < j.start - 50)
        .at(-1);
      if (askedBefore) rows.push([`paint ${askedBefore[1]} (before)`, at(askedBefore[0])]);
      const madeT = pw.find(([, e, , f]) => e === 'make' && f === j.target);
      if (madeT)
        rows.push(
          ['paint make', at(madeT[0])],
          ['paint made', at(pw.find(([, e, , f]) => e === 'made' && f === j.target)?.[0])],
        );
      const madeOthers = pw.filter(
        ([t, e, , f]) => e === 'made' && f !== j.target && t >= j.start && (!madeT || t <= madeT[0]),
      );
      if (madeOthers.length)
        others.push([`paint made first: ${madeOthers.map(([, , , f]) => f).join(' ')}`, at(madeOthers[0][0])]);
      rows.push(['seen', j.seen ? at(j.seen) : null]);
      return {
        target: j.target,
        from: j.from,
        ms: j.seen ? at(j.seen) : null,
        rows,
        others: others.sort((a, b) => a[1] - b[1]),
      };
    });
  },

  /** Fast travel (roomwalk_marker message, animated at 0.002 s per frame): exact frame time after the animation. */
  async travels(targets, wantHigh = true) {
    const after = [];
    for (const t of targets) {
      await raf();
      const from = player.currentFrame;
      const anim = Math.abs(t - from) * 2;
      const t0 = performance.now();
      window.postMessage({ type: 'roomwalk_marker', frameIndex: t }, location.origin);
      for (;;) {
        await raf();
        const r = readFrame(canvas);
        const now = performance.now() - t0;
        if ((r.frame === t && r.low !== wantHigh) || now > 10000) {
          after.push(Math.max(0, now - anim));
          break;
        }
      }
      while (player.travelStatus !== 'idle' && player.currentFrame !== t) await raf();
      await new Promise((r) => setTimeout(r, 20));
    }
    return after;
  },

  async stats() {
    return { ...(await player.stats()), ways: await this.ways() };
  },

  /**
   * How each worker makes its bitmaps, per shape (src/workers/frame-bitmap.ts Way, from its marks): `drawn` (the
   * browser draws the frame), `converted` (copyTo or wasm, then put), or `choosing` while its trials run, with the
   * two ways' fastest times, in the order chosen (`again`: a re-check changed the way; way-chooser.ts); e.g.
   * `paint drawn 1280x720>650x366 (4.1 against 8.3 ms) converted 640x360>650x366 (1.2 against 1.9 ms)`.
   */
  async ways() {
    let decoders = 0;
    const out = [];
    for (const w of playerWorkers) {
      const who = w.name === 'decode' ? `decode${decoders++}` : w.name;
      const marks = (await askWorker(w.worker, ['timeline'])) ?? {};
      const kept = Object.keys(marks)
        .filter((k) => k.startsWith('drawn by the browser ') || k.startsWith('converted, not drawn'))
        .sort((a, b) => marks[a] - marks[b])
        .map((k) => k.replace('drawn by the browser', 'drawn').replace('converted, not drawn', 'converted'));
      out.push(`${who} ${kept.length ? kept.join(' ') : 'choosing'}`);
    }
    return out.join(', ');
  },

  /**
   * The exact frame at rest: `n` times, a short scrub (`steps` key steps, one a refresh) and then the finger rests; ms
   * from the last step until the exact 720p frame of the resting position is on the canvas (5 s at most).
   */
  async rests(start, n = 20, steps = 12) {
    await Promise.race([player.goToFrame(start), new Promise((r) => setTimeout(r, 10000))]);
    canvas.focus();
    const out = [];
    lastRests = [];
    let expected = start;
    for (let i = 0; i < n; i++) {
      const dir = i % 2 ? -1 : 1;
      const key = dir > 0 ? 'ArrowRight' : 'ArrowLeft';
      for (let k = 0; k < steps; k++) {
        expected += dir;
        canvas.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true }));
        await raf();
      }
      const t0 = performance.now();
      const run = { target: expected, start: epoch(), seen: 0, from: expected - steps * dir, refreshes: [] };
      lastRests.push(run);
      for (;;) {
        const r = readFrame(canvas);
        const now = performance.now() - t0;
        if ((r.frame === expected && !r.low) || now > 5000) {
          out.push(now);
          if (now <= 5000) run.seen = epoch();
          break;
        }
        await raf();
        run.refreshes.push(epoch());
      }
    }
    return out;
  },

  /**
   * The engine's own decoding ceiling: `workers` workers (bench/ceiling-worker.mjs) each decoding the 720p clips with
   * a full queue for `ms`, all at once. Frames a second per worker and for the pool. `copy`: each frame also copied
   * out as the player's decode worker copies it (its cost in this engine).
   */
  async ceiling(urls, workers, ms = 4000, copy = false) {
    const runs = await Promise.all(
      Array.from({ length: workers }, () => {
        const w = new Worker('/ceiling-worker.js');
        return new Promise((resolve) => {
          w.onmessage = (e) => {
            w.terminate();
            resolve(e.data);
          };
          w.postMessage({ urls: urls.map((u) => new URL(u, location.href).href), ms, copy });
        });
      }),
    );
    const failed = runs.find((r) => r.error);
    if (failed) return { error: failed.error };
    const perWorker = runs.map((r) => (r.frames * 1000) / r.ms);
    return { perWorker, pool: perWorker.reduce((a, b) => a + b, 0) };
  },

  /** First frame after connect: from append to pixels of frame 0 on the canvas. */
  async firstFrame(tourId, api, size = { width: 1000, height: 600 }) {
    document.querySelector('tour-player')?.remove();
    const p = document.createElement('tour-player');
    p.setAttribute('tour-id', tourId);
    p.setAttribute('api', api);
    p.style.cssText = `display:block;width:${size.width}px;height:${size.height}px`;
    playerWorkers.length = 0;
    performance.clearResourceTimings();
    const run = { start: epoch(), ready: 0, looks: [], gaps: [], frames: [] };
    firstRun = run;
    p.addEventListener('tour-ready', () => (run.ready = epoch()), { once: true });
    // The page's main thread while the player starts: every gap over 100 ms between two of its tasks (it was busy, or
    // the browser ran no task), as [start, ms].
    const tick = new MessageChannel();
    let last = epoch();
    tick.port1.onmessage = () => {
      const t = epoch();
      if (t - last > 100) run.gaps.push([last, t - last]);
      last = t;
      if (!run.seen) setTimeout(() => tick.port2.postMessage(0), 5);
    };
    tick.port2.postMessage(0);
    const t0 = performance.now();
    document.body.append(p);
    for (;;) {
      await raf();
      run.frames.push(epoch());
      const c = p.shadowRoot?.querySelector('canvas');
      if (c && p.playerStatus === 'ready') {
        run.looks.push(epoch());
        const snap = snapshot(c);
        const r = readFrame(c, snap);
        if (r.frame === 0) {
          // A black canvas also reads 0: require some bright pixels.
          const d = snap.getImageData(0, Math.floor(c.height / 2), c.width, 1).data;
          let lit = 0;
          for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] > 150) lit++;
          if (lit > 10) {
            run.seen = epoch();
            return performance.now() - t0;
          }
        }
      }
      if (performance.now() - t0 > 20000) return -1;
    }
  },

  /**
   * Where the last firstFrame's time went: ms from the element's append to the tour query's answer, each worker made,
   * its first answer and its own marks (src/workers/timeline.ts: decode workers `decode0`, `decode1`, the paint worker
   * `paint`), the player's tour-ready and the pixels seen. Sorted by time.
   */
  async firstFrameTimeline() {
    const run = firstRun;
    if (!run) return [];
    const at = (t) => Math.round(t - run.start);
    const rows = [];
    const query = performance
      .getEntriesByType('resource')
      .find((e) => e.initiatorType === 'fetch' && new URL(e.name).pathname === '/query');
    if (query) rows.push(['tour query answered', at(performance.timeOrigin + query.responseEnd)]);
    let decoders = 0;
    for (const w of playerWorkers) {
      const who = w.name === 'decode' ? `decode${decoders++}` : w.name;
      rows.push([`${who} made`, at(w.made)]);
      if (w.answered) rows.push([`${who} first answer`, at(w.answered)]);
      const marks = await askWorker(w.worker, ['timeline']);
      for (const [name, t] of Object.entries(marks ?? {})) rows.push([`${who} ${name}`, at(t)]);
    }
    if (run.ready) rows.push(['tour-ready', at(run.ready)]);
    // The page's first look at the canvas once the player said ready (the next refresh), the page's main thread busy
    // (no task ran) and refreshes that came late, each over 100 ms.
    if (run.looks.length) rows.push(['first look', at(run.looks[0])]);
    for (const [t, ms] of run.gaps) if (ms > 100) rows.push([`main thread busy ${Math.round(ms)} ms from`, at(t)]);
    let prev = run.start;
    for (const t of run.frames) {
      if (t - prev > 100) rows.push([`refresh ${Math.round(t - prev)} ms after the last at`, at(t)]);
      prev = t;
    }
    if (run.seen) rows.push(['frame 0 seen', at(run.seen)]);
    return rows.sort((a, b) => a[1] - b[1]);
  },

  /** Baseline: the same scrub through a <video> seeking currentTime on the source MP4. */
  async videoScrub(src, fps, start, steps, dir, jumpTargets = []) {
    const v = document.createElement('video');
    v.muted = true;
    v.crossOrigin = 'anonymous';
    v.preload = 'auto';
    v.src = src;
    await new Promise((r, j) => {
      v.onloadeddata = r;
      v.onerror = () => j(new Error('video load failed'));
    });
    // Fully buffer the file first so the baseline is not penalised for network.
    const t0 = performance.now();
    while (
      !(v.buffered.length && v.buffered.end(v.buffered.length - 1) >= v.duration - 0.1) &&
      performance.now() - t0 < 30000
    )
      await raf();
    const c = document.createElement('canvas');
    c.width = 650;
    c.height = 366;
    const cx = c.getContext('2d', { willReadFrequently: true });
    const seeked = new Promise((r) => (v.onseeked = r));
    v.currentTime = (start + 0.5) / fps;
    await Promise.race([seeked, new Promise((r) => setTimeout(r, 5000))]);
    longTasks.length = 0;
    let ok = 0,
      expected = start;
    for (let i = 0; i < steps; i++) {
      expected += dir;
      v.currentTime = (expected + 0.5) / fps;
      await raf();
      cx.drawImage(v, 0, 0, c.width, c.height);
      if (readFrame(c, cx).frame === expected) ok++;
    }
    const longTaskMax = longTasks.length ? Math.max(...longTasks) : 0;
    // Jumps on the same element: time from setting currentTime to the target frame drawn from the <video>.
    const jumps = [];
    for (const t of jumpTargets) {
      const t0 = performance.now();
      v.currentTime = (t + 0.5) / fps;
      for (;;) {
        await raf();
        cx.drawImage(v, 0, 0, c.width, c.height);
        if (readFrame(c, cx).frame === t || performance.now() - t0 > 5000) break;
      }
      jumps.push(performance.now() - t0);
    }
    v.removeAttribute('src');
    v.load();
    return { steps, ok, longTaskMax, jumps };
  },

  /**
   * Baseline first frame: a <video> on the source MP4, from creation to frame 0 drawn (lit pixels, as for the player).
   */
  async videoFirstFrame(src) {
    const v = document.createElement('video');
    v.muted = true;
    v.crossOrigin = 'anonymous';
    v.preload = 'auto';
    const c = document.createElement('canvas');
    c.width = 650;
    c.height = 366;
    const cx = c.getContext('2d', { willReadFrequently: true });
    const t0 = performance.now();
    v.src = `${src}?first=${Math.random()}`;
    try {
      for (;;) {
        await raf();
        if (performance.now() - t0 > 20000) return -1;
        if (v.readyState < 2) continue;
        cx.drawImage(v, 0, 0, c.width, c.height);
        const d = cx.getImageData(0, Math.floor(c.height / 2), c.width, 1).data;
        let lit = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] > 150) lit++;
        if (readFrame(c, cx).frame === 0 && lit > 10) return performance.now() - t0;
      }
    } finally {
      v.removeAttribute('src');
      v.load();
    }
  },

  /**
   * Does CPU throttling reach a dedicated worker? The same fixed busy loop timed on the main thread and in a worker,
   * and canvas work (bitmaps) in the worker.
   */
  async busyLoop(n) {
    const spin = (k) => {
      let x = 0;
      for (let i = 0; i < k; i++) x += Math.sqrt(i);
      return x;
    };
    const t0 = performance.now();
    spin(n);
    const main = performance.now() - t0;
    // The paint worker's kind of work too: RGBA pixels put on an OffscreenCanvas and taken off it as bitmaps (640x360).
    const paint = (k) => {
      const c = new OffscreenCanvas(640, 360);
      const img = new ImageData(640, 360);
      for (let i = 0; i < k; i++) {
        c.getContext('2d').putImageData(img, 0, 0);
        c.transferToImageBitmap().close();
      }
    };
    const src = `const spin = ${spin.toString()}; const paint = ${paint.toString()};
      onmessage = (e) => { const t0 = performance.now(); spin(e.data); const t1 = performance.now(); paint(40); postMessage([t1 - t0, performance.now() - t1]); };`;
    const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
    const [worker, workerCanvas] = await new Promise((r) => {
      w.onmessage = (e) => r(e.data);
      w.postMessage(n);
    });
    w.terminate();
    return { main, worker, workerCanvas };
  },
};
