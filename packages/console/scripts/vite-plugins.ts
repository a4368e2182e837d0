/**
 * Build plugins of the console: Shoelace assets without a CDN, and the third-party licence text from the real bundle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);

/** Where Shoelace's icons live in node_modules. */
function shoelaceIconsDir(): string {
  // The package exports no package.json; resolve a shipped module and walk up to dist/.
  const anyModule = require.resolve('@shoelace-style/shoelace/dist/utilities/base-path.js');
  return path.join(path.dirname(anyModule), '..', 'assets/icons');
}

/**
 * Serves (dev) and emits (build) the Shoelace icons the console uses under /shoelace/assets/icons/,
 * the base path the app sets with setBasePath('/shoelace').
 */
export function shoelaceAssets(iconNames: readonly string[]): Plugin {
  const dir = shoelaceIconsDir();
  return {
    name: 'roomwalk-shoelace-assets',
    configureServer(server) {
      server.middlewares.use('/shoelace/assets/icons/', (req, res, next) => {
        const name = (req.url ?? '').replace(/^\//, '').split('?')[0] ?? '';
        const file = path.join(dir, path.basename(name));
        if (!name.endsWith('.svg') || !fs.existsSync(file)) return next();
        res.setHeader('Content-Type', 'image/svg+xml');
        fs.createReadStream(file).pipe(res);
      });
    },
    generateBundle() {
      for (const name of iconNames) {
        const file = path.join(dir, `${name}.svg`);
        if (!fs.existsSync(file)) this.error(`Shoelace icon "${name}" does not exist`);
        this.emitFile({ type: 'asset', fileName: `shoelace/assets/icons/${name}.svg`, source: fs.readFileSync(file) });
      }
    },
  };
}

interface PackageInfo {
  name: string;
  version: string;
  license: string;
  repository?: string;
  licenseText?: string;
}

/** The package folder of a module id inside node_modules, or null for our own sources. */
function packageDirOf(id: string): string | null {
  const clean = id.replace(/^\0/, '').split('?')[0] ?? '';
  const marker = `${path.sep}node_modules${path.sep}`;
  const at = clean.lastIndexOf(marker);
  if (at < 0) return null;
  const rest = clean.slice(at + marker.length).split(path.sep);
  const depth = rest[0]?.startsWith('@') ? 2 : 1;
  return clean.slice(0, at + marker.length) + rest.slice(0, depth).join(path.sep);
}

function readPackage(dir: string): PackageInfo | null {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    const license =
      typeof pkg.license === 'string'
        ? pkg.license
        : ((pkg.license as { type?: string } | undefined)?.type ?? 'UNKNOWN');
    const repoField = pkg.repository;
    const repository = typeof repoField === 'string' ? repoField : (repoField as { url?: string } | undefined)?.url;
    const licenseFile = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\..*)?$/i.test(f));
    const licenseText = licenseFile ? fs.readFileSync(path.join(dir, licenseFile), 'utf8').trim() : undefined;
    return { name: String(pkg.name), version: String(pkg.version), license, repository, licenseText };
  } catch {
    return null;
  }
}

/**
 * Emits third-party-licenses.txt: every npm package whose code ends up in the bundle, with its licence text,
 * read from the real dependency tree at build time. The /licenses page fetches it.
 */
export function thirdPartyLicenses(fileName = 'third-party-licenses.txt'): Plugin {
  return {
    name: 'roomwalk-third-party-licenses',
    apply: 'build',
    generateBundle(_options, bundle) {
      const dirs = new Set<string>();
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        for (const id of item.moduleIds) {
          const dir = packageDirOf(id);
          if (dir) dirs.add(fs.realpathSync(dir));
        }
      }
      const packages = [...dirs]
        .map(readPackage)
        .filter((p): p is PackageInfo => !!p && !p.name.startsWith('@roomwalk/'))
        .sort((a, b) => a.name.localeCompare(b.name));
      const seen = new Set<string>();
      const sections = packages
        .filter((p) => (seen.has(`${p.name}@${p.version}`) ? false : (seen.add(`${p.name}@${p.version}`), true)))
        .map((p) =>
          [
            `${p.name}@${p.version}`,
            `License: ${p.license}`,
            ...(p.repository ? [`Repository: ${p.repository.replace(/^git\+/, '')}`] : []),
            '',
            p.licenseText ?? '(No licence file is shipped with this package; see its declared licence above.)',
          ].join('\n'),
        );
      const header = `Roomwalk console: third-party software\n\nThis build includes the following ${sections.length} open-source packages.\n`;
      this.emitFile({ type: 'asset', fileName, source: `${header}\n${sections.join(`\n\n${'-'.repeat(72)}\n\n`)}\n` });
    },
  };
}
