import { expect } from '@esm-bundle/chai';
import { ownerToken, real, sameOriginServer, server, until } from '../../test/helpers.js';

// The script-tag bundle (dist/tour-player.js) keeps what only some visitors need out of the first load: the editing
// chunk (drawer edit UI, marker calls, AI markers) is fetched only in edit mode, the <video> fallback only without
// WebCodecs (scripts/build.mjs; the 30 KB gzip budget of the main thread).

const fetched = (w: Window) =>
  (w.performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
    (e) => new URL(e.name).pathname.split('/').pop()!,
  );

interface Page {
  w: Window & typeof globalThis;
  player: HTMLElement & { shadowRoot: ShadowRoot };
  remove(): void;
}

/** A page with the script-tag player; `before` runs in the page before the bundle, `props` are set on the element. */
async function page(attrs: string, opts: { before?: string; authToken?: string } = {}): Promise<Page> {
  const f = document.createElement('iframe');
  f.style.cssText = 'width:1000px;height:600px';
  const loaded = new Promise((r) => f.addEventListener('load', r, { once: true }));
  f.srcdoc = `<!doctype html><body style="margin:0">
    ${opts.before ? `<script>${opts.before}</script>` : ''}
    <script src="/packages/player-element/dist/tour-player.js"></script>
    <script>window.readyFired = false;</script>
    <tour-player ${attrs} style="height:560px"></tour-player>
    <script>
      const p = document.querySelector('tour-player');
      ${opts.authToken ? `p.authToken = ${JSON.stringify(opts.authToken)};` : ''}
      p.addEventListener('tour-ready', () => (window.readyFired = true));
    </script></body>`;
  document.body.append(f);
  await loaded;
  const w = f.contentWindow! as Window & typeof globalThis;
  const player = w.document.querySelector('tour-player') as Page['player'];
  await until(() => (w as unknown as { readyFired: boolean }).readyFired, 'tour-ready', 30_000);
  return { w, player, remove: () => f.remove() };
}

const drawerRoot = (p: Page) => p.player.shadowRoot.querySelector('tour-markers-drawer')?.shadowRoot ?? null;

describe('Lazy chunks of the script-tag bundle', () => {
  for (const mode of ['external', 'preview', 'agent']) {
    it(`viewing a tour (mode ${mode}) fetches neither the editing chunk nor the fallback`, async function () {
      this.timeout(60_000);
      const p = await page(`tour-id="${real.main}" api="${server}" mode="${mode}"`, {
        authToken: mode === 'external' ? undefined : ownerToken,
      });
      try {
        const rows = await until(() => drawerRoot(p)?.querySelectorAll('li[part="row"]').length, 'the drawer rows');
        expect(rows).to.be.greaterThan(0);
        expect(drawerRoot(p)!.querySelector('.add-open, .edit')).to.equal(null);
        expect(fetched(p.w)).to.include('tour-player.js');
        expect(fetched(p.w)).to.not.include('tour-player-edit.js');
        expect(fetched(p.w)).to.not.include('tour-player-fallback.js');
        expect(fetched(p.w)).to.not.include('tour-player-subscription.js');
      } finally {
        p.remove();
      }
    });
  }

  it('an external player fetches the visit report chunk on idle and its start beacon goes out', async function () {
    this.timeout(60_000);
    const p = await page(`tour-id="${real.main}" api="${server}"`);
    try {
      await until(() => fetched(p.w).includes('tour-player-visit.js'), 'the visit chunk');
      await until(() => fetched(p.w).includes('tour-visit'), 'the start beacon');
    } finally {
      p.remove();
    }
  });

  it('edit mode fetches the editing chunk and shows the edit UI with its styles', async function () {
    this.timeout(60_000);
    const p = await page(`tour-id="${real.edit}" api="${sameOriginServer}" mode="edit"`, { authToken: ownerToken });
    try {
      const add = await until(() => drawerRoot(p)?.querySelector<HTMLButtonElement>('.add-open'), 'the Add button');
      expect(fetched(p.w)).to.include('tour-player-edit.js');
      expect(fetched(p.w)).to.not.include('tour-player-fallback.js');
      // The icon buttons get the editing chunk's styles (32 px targets).
      const rename = drawerRoot(p)!.querySelector<HTMLButtonElement>('button.edit.icon')!;
      expect(p.w.getComputedStyle(rename).minWidth).to.equal('32px');
      add!.click();
      const names = await until(() => drawerRoot(p)!.querySelectorAll('.predefined').length, 'the predefined names');
      expect(names).to.be.greaterThan(0);
      expect(fetched(p.w)).to.not.include('tour-player-subscription.js');
    } finally {
      p.remove();
    }
  });

  it('without WebCodecs it fetches the <video> fallback and draws the tour', async function () {
    this.timeout(60_000);
    const p = await page(`tour-id="${real.main}" api="${server}"`, { before: 'window.VideoDecoder = undefined;' });
    try {
      expect(fetched(p.w)).to.include('tour-player-fallback.js');
      expect(fetched(p.w)).to.not.include('tour-player-edit.js');
      expect((p.player as unknown as { totalFrames: number }).totalFrames).to.be.greaterThan(0);
    } finally {
      p.remove();
    }
  });
});
