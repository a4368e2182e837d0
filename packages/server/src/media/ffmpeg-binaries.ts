/**
 * Locates ffmpeg and ffprobe: `FFMPEG_PATH` / `FFPROBE_PATH` when set, else the system binaries
 * (Debian's `/usr/bin/ffmpeg`, or the first on PATH), else the npm packages that ship binaries
 * (`@ffmpeg-installer/ffmpeg`, `@ffprobe-installer/ffprobe`) when they are installed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

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
  const ffmpeg = locate('ffmpeg', process.env.FFMPEG_PATH, '@ffmpeg-installer/ffmpeg');
  const ffprobe = locate('ffprobe', process.env.FFPROBE_PATH, '@ffprobe-installer/ffprobe');
  cached = { ffmpeg, ffprobe };
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

function locate(name: string, override: string | undefined, npmPackage: string): string {
  if (override) {
    if (!existsSync(override)) throw new Error(`${name} not found at ${override}`);
    return override;
  }
  const system = `/usr/bin/${name}`;
  if (existsSync(system)) return system;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
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
