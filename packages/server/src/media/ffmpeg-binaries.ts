/**
 * Locates ffmpeg and ffprobe: `FFMPEG_PATH` / `FFPROBE_PATH` when set, else the system binaries
 * (Debian's `/usr/bin/ffmpeg`, or the first on PATH), else the npm packages that ship binaries
 * (`@ffmpeg-installer/ffmpeg`, `@ffprobe-installer/ffprobe`) when they are installed.
 *
 * The npm packages hold a 2018 static build; it decodes untrusted uploads, so production refuses to start on it
 * (assertProductionMediaBinaries) and development only uses it when no system ffmpeg exists.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join, sep } from 'node:path';

export interface FfmpegBinaries {
  ffmpeg: string;
  ffprobe: string;
}

export interface FfmpegCapabilities {
  /** zscale (libzimg) and tonemap are both present: proper HDR → SDR tone mapping. */
  toneMap: boolean;
  libx264: boolean;
}

let cached: FfmpegBinaries | null = null;
let cachedCaps: FfmpegCapabilities | null = null;

/** The ffmpeg and ffprobe to run; throws when none is found. */
export function ffmpegBinaries(): FfmpegBinaries {
  if (cached) return cached;
  cached = locateFfmpegBinaries();
  return cached;
}

/** What this ffmpeg build can do; asked once per process. */
export function ffmpegCapabilities(): FfmpegCapabilities {
  if (cachedCaps) return cachedCaps;
  const { ffmpeg } = ffmpegBinaries();
  const filters = execFileSync(ffmpeg, ['-hide_banner', '-filters'], { encoding: 'utf8', timeout: 10_000 });
  const encoders = execFileSync(ffmpeg, ['-hide_banner', '-encoders'], { encoding: 'utf8', timeout: 10_000 });
  const hasFilter = (name: string) => new RegExp(`^\\s*\\S+\\s+${name}\\s`, 'm').test(filters);
  cachedCaps = {
    toneMap: hasFilter('zscale') && hasFilter('tonemap'),
    libx264: /^\s*V\S*\s+libx264\s/m.test(encoders),
  };
  return cachedCaps;
}

/** Where the binaries are looked for (tests pass their own). */
export interface LocateOptions {
  env?: Record<string, string | undefined>;
  systemDirs?: readonly string[];
}

/** Finds the binaries without caching (ffmpegBinaries() caches this for the process). */
export function locateFfmpegBinaries(opts: LocateOptions = {}): FfmpegBinaries {
  const env = opts.env ?? process.env;
  return {
    ffmpeg: locate('ffmpeg', env.FFMPEG_PATH, '@ffmpeg-installer/ffmpeg', opts),
    ffprobe: locate('ffprobe', env.FFPROBE_PATH, '@ffprobe-installer/ffprobe', opts),
  };
}

/** True for a binary of the npm fallback packages (the 2018 @ffmpeg-installer / @ffprobe-installer builds). */
export function isNpmFallbackBinary(file: string): boolean {
  let real = file;
  try {
    real = realpathSync(file);
  } catch {
    // keep the given path
  }
  return [file, real].some(
    (f) => f.includes(`${sep}@ffmpeg-installer${sep}`) || f.includes(`${sep}@ffprobe-installer${sep}`),
  );
}

export const NPM_FFMPEG_REFUSED =
  'Refusing to start: the only ffmpeg found is the npm fallback build (@ffmpeg-installer, from 2018), which must not decode uploads in production. Install ffmpeg from the system (apt-get install ffmpeg) or set FFMPEG_PATH and FFPROBE_PATH to a maintained build.';

/** In production a node that decodes video must run a maintained ffmpeg: throws with a clear message otherwise. */
export function assertProductionMediaBinaries(bins: FfmpegBinaries = ffmpegBinaries()): void {
  if (isNpmFallbackBinary(bins.ffmpeg) || isNpmFallbackBinary(bins.ffprobe)) throw new Error(NPM_FFMPEG_REFUSED);
}

let cachedVersion: string | null | undefined;

/** The first line of `ffmpeg -version` (e.g. "ffmpeg version 5.1.9-0+deb12u1"), or null when no ffmpeg is found. */
export function ffmpegVersion(): string | null {
  if (cachedVersion !== undefined) return cachedVersion;
  try {
    const out = execFileSync(ffmpegBinaries().ffmpeg, ['-hide_banner', '-version'], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    cachedVersion = (out.split('\n')[0] ?? '').replace(/\s+Copyright.*$/, '').trim() || null;
  } catch {
    cachedVersion = null;
  }
  return cachedVersion;
}

function locate(name: string, override: string | undefined, npmPackage: string, opts: LocateOptions = {}): string {
  if (override) {
    if (!existsSync(override)) throw new Error(`${name} not found at ${override}`);
    return override;
  }
  const env = opts.env ?? process.env;
  for (const dir of opts.systemDirs ?? ['/usr/bin']) {
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  for (const dir of (opts.systemDirs ? '' : (env.PATH ?? '')).split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  try {
    // Optional dependency: required by name at run time so type checking does not need it installed.
    const require = createRequire(import.meta.url);
    const pkg = require(npmPackage) as { path?: string };
    if (pkg.path && existsSync(pkg.path)) return pkg.path;
  } catch {
    // not installed
  }
  throw new Error(`${name} not found: install ffmpeg (apt-get install ffmpeg) or ${npmPackage}`);
}
