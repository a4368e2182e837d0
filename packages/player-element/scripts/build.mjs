// Builds dist/: tour-player.js (one self-contained script-tag bundle registering <tour-player>),
// esm/ (for bundlers; lit, comlink and react stay external), with the decode worker inlined as a
// Blob URL so the element works when its script is hosted on another origin than the page.
// Then the custom-elements manifest and a size report (gzip).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, 'esm'), { recursive: true });

// The shared package's index also re-exports zod schemas; the player only needs constants and
// texts, so the bundles take those two modules directly.
const sharedSubset = {
  name: 'shared-subset',
  setup(b) {
    // The lazily loaded live panel validates the lead form with the shared zod schema: it gets the whole package.
    b.onResolve({ filter: /^@roomwalk\/shared$/ }, (args) => ({ path: args.importer.includes(join('src', 'live-panel')) ? 'shared-live' : 'shared-subset', namespace: 'shared-subset' }));
    b.onLoad({ filter: /.*/, namespace: 'shared-subset' }, (args) => ({
      contents: `export * from ${JSON.stringify(join(root, '../shared/src/constants.ts'))}; export * from ${JSON.stringify(join(root, '../shared/src/messages.ts'))};${args.path === 'shared-live' ? ` export * from ${JSON.stringify(join(root, '../shared/src/schemas/tour.ts'))};` : ''}`,
      loader: 'ts',
      resolveDir: root,
    }));
  },
};

const common = { bundle: true, minify: true, target: 'es2022', legalComments: 'none', logLevel: 'warning', conditions: ['production'], define: { 'process.env.NODE_ENV': '"production"' } };

const worker = await build({ ...common, entryPoints: [join(root, 'src/workers/decode-worker.ts')], format: 'iife', write: false, plugins: [sharedSubset] });
const workerCode = worker.outputFiles[0].text;
writeFileSync(join(dist, 'decode-worker.js'), workerCode);

const inlineWorkerWith = (code) => ({
  name: 'inline-worker',
  setup(b) {
    b.onResolve({ filter: /create-decode-worker\.js$/ }, () => ({ path: 'create-decode-worker', namespace: 'inline-worker' }));
    b.onLoad({ filter: /.*/, namespace: 'inline-worker' }, () => ({
      contents: `const source = ${JSON.stringify(code)};
let url;
export function createDecodeWorker() {
  url ??= URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  return new Worker(url, { name: 'tour-decode' });
}`,
      loader: 'js',
    }));
  },
});
const inlineWorker = inlineWorkerWith(workerCode);

// The script-tag bundle loads the live panel (lead form, video call) from tour-player-live.js next to itself, only
// when a call starts; the chunk is an ES module with its own copy of lit.
const liveChunk = {
  name: 'live-chunk',
  setup(b) {
    b.onResolve({ filter: /live-panel\/load\.js$/ }, () => ({ path: 'live-load', namespace: 'live-chunk' }));
    b.onLoad({ filter: /.*/, namespace: 'live-chunk' }, () => ({
      contents: `const base = (document.currentScript && document.currentScript.src) || location.href;
export const loadLivePanel = () => import(new URL('tour-player-live.js', base).href);`,
      loader: 'js',
    }));
  },
};
await build({ ...common, entryPoints: [join(root, 'src/index.ts')], format: 'iife', outfile: join(dist, 'tour-player.js'), plugins: [sharedSubset, inlineWorker, liveChunk], splitting: false });
await build({ ...common, entryPoints: [join(root, 'src/live-panel/live-panel.ts')], format: 'esm', outfile: join(dist, 'tour-player-live.js'), plugins: [sharedSubset] });
await build({
  ...common,
  minify: false,
  entryPoints: { index: join(root, 'src/index.ts'), react: join(root, 'src/react/index.ts') },
  format: 'esm',
  splitting: true,
  outdir: join(dist, 'esm'),
  external: ['lit', 'lit/*', '@lit/*', 'comlink', 'react', 'react-dom'],
  plugins: [sharedSubset, inlineWorker],
});

// TypeScript declarations for consumers of dist/esm.
execFileSync(process.execPath, [join(root, '../../node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });

// Custom-elements manifest from the JSDoc of the components.
execFileSync(process.execPath, [join(root, '../../node_modules/@custom-elements-manifest/analyzer/cem.js'), 'analyze', '--litelement', '--globs', 'src/**/*.component.ts', '--outdir', '.', '--quiet'], { cwd: root, stdio: 'inherit' });

// The main-thread share: the same bundle with an empty worker source.
const mainOnly = await build({ ...common, entryPoints: [join(root, 'src/index.ts')], format: 'iife', write: false, plugins: [sharedSubset, inlineWorkerWith(''), liveChunk] });
const gz = (s) => gzipSync(s, { level: 9 }).length;
const mainJs = readFileSync(join(dist, 'tour-player.js'));
const report = {
  allGzipBytes: gz(mainJs),
  mainThreadGzipBytes: gz(mainOnly.outputFiles[0].contents),
  workerGzipBytes: gz(workerCode),
  liveChunkGzipBytes: gz(readFileSync(join(dist, 'tour-player-live.js'))),
};
writeFileSync(join(dist, 'sizes.json'), JSON.stringify(report, null, 2));
console.log(`built dist/: all JS ${(report.allGzipBytes / 1024).toFixed(1)} KB gzip (main thread ${(report.mainThreadGzipBytes / 1024).toFixed(1)} KB, worker ${(report.workerGzipBytes / 1024).toFixed(1)} KB; live chunk, loaded when a call starts, ${(report.liveChunkGzipBytes / 1024).toFixed(1)} KB)`);
