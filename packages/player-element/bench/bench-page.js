// In-page side of the benchmark: every figure is read from canvas pixels (the frame barcode and
// the low-rendition corner box), never from the element's events.
const raf = () => new Promise((r) => requestAnimationFrame(r));

function readFrame(canvas, ctx) {
  const sx = canvas.width / 1280,
    sy = canvas.height / 720;
  const y = Math.floor(20 * sy);
  const row = ctx.getImageData(0, y, Math.ceil(640 * sx), 1).data;
  let n = 0;
  for (let k = 0; k < 16; k++) {
    const x = Math.floor((40 * k + 20) * sx);
    if (row[x * 4] * 0.3 + row[x * 4 + 1] * 0.59 + row[x * 4 + 2] * 0.11 > 128) n |= 1 << k;
  }
  const bx = Math.floor((1240 / 1280) * canvas.width),
    by = Math.floor((680 / 720) * canvas.height);
  const d = ctx.getImageData(bx - 2, by - 2, 5, 5).data;
  let white = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] > 225 && d[i + 1] > 225 && d[i + 2] > 225) white++;
  return { frame: n, low: white >= 20 };
}

let player, canvas, ctx;
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

window.bench = {
  async load(tourId, api, waitBuffered = true) {
    document.querySelector('tour-player')?.remove();
    player = document.createElement('tour-player');
    player.setAttribute('tour-id', tourId);
    player.setAttribute('api', api);
    player.setAttribute('disabled-controls', 'markers');
    player.setAttribute('host-events', '');
    player.style.cssText = 'display:block;width:1000px;height:600px';
    const ready = new Promise((r) => player.addEventListener('tour-ready', r, { once: true }));
    document.body.append(player);
    await ready;
    canvas = player.shadowRoot.querySelector('canvas');
    ctx = canvas.getContext('2d');
    const t0 = performance.now();
    if (waitBuffered) while (player.loadedFrameCount < player.totalFrames && performance.now() - t0 < 120000) await raf();
    return { total: player.totalFrames, canvas: [canvas.width, canvas.height] };
  },

  /** One keyboard step per animation frame; a step counts when the exact 720p frame is on the canvas at the next frame. */
  async scrub(start, steps, dir) {
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
    for (let i = 0; i < steps; i++) {
      expected += dir;
      canvas.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true }));
      await raf();
      const r = readFrame(canvas, ctx);
      if (r.frame === expected && !r.low) ok++;
      else if (r.frame === expected) lowShown++;
      else stale++;
    }
    return { steps, ok, lowShown, stale, longTaskMax: longTasks.length ? Math.max(...longTasks) : 0, longTasks: longTasks.length, loaf: [...loafs].sort((a, b) => b.block - a.block) };
  },

  /** Programmatic jumps: time to a placeholder from the target's neighbourhood and to the exact 720p frame. */
  async jumps(targets) {
    const exact = [],
      placeholder = [],
      placeholderFrames = [];
    for (const t of targets) {
      await raf();
      const t0 = performance.now();
      const done = player.goToFrame(t);
      let placed = 0,
        frames = 0,
        placedAt = 0;
      for (;;) {
        await raf();
        frames++;
        const r = readFrame(canvas, ctx);
        const now = performance.now() - t0;
        if (!placed && Math.abs(r.frame - t) <= 36) {
          placed = now;
          placedAt = frames;
        }
        if (r.frame === t && !r.low) {
          exact.push(now);
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

  /** Fast travel (roomwalk_marker message, animated at 0.002 s per frame): exact frame time after the animation. */
  async travels(targets) {
    const after = [];
    for (const t of targets) {
      await raf();
      const from = player.currentFrame;
      const anim = Math.abs(t - from) * 2;
      const t0 = performance.now();
      window.postMessage({ type: 'roomwalk_marker', frameIndex: t }, location.origin);
      for (;;) {
        await raf();
        const r = readFrame(canvas, ctx);
        const now = performance.now() - t0;
        if ((r.frame === t && !r.low) || now > 10000) {
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
    return player.stats();
  },

  /** First frame after connect: from append to pixels of frame 0 on the canvas. */
  async firstFrame(tourId, api) {
    document.querySelector('tour-player')?.remove();
    const p = document.createElement('tour-player');
    p.setAttribute('tour-id', tourId);
    p.setAttribute('api', api);
    p.style.cssText = 'display:block;width:1000px;height:600px';
    const t0 = performance.now();
    document.body.append(p);
    for (;;) {
      await raf();
      const c = p.shadowRoot?.querySelector('canvas');
      if (c && p.playerStatus === 'ready') {
        const r = readFrame(c, c.getContext('2d'));
        if (r.frame === 0) {
          // A black canvas also reads 0: require some bright pixels.
          const d = c.getContext('2d').getImageData(0, Math.floor(c.height / 2), c.width, 1).data;
          let lit = 0;
          for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] > 150) lit++;
          if (lit > 10) return performance.now() - t0;
        }
      }
      if (performance.now() - t0 > 20000) return -1;
    }
  },

  /** Baseline: the same scrub through a <video> seeking currentTime on the source MP4. */
  async videoScrub(src, fps, start, steps, dir) {
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
    while (!(v.buffered.length && v.buffered.end(v.buffered.length - 1) >= v.duration - 0.1) && performance.now() - t0 < 30000) await raf();
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
    return { steps, ok, longTaskMax: longTasks.length ? Math.max(...longTasks) : 0 };
  },
};
