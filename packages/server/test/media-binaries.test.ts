/**
 * Media binaries: production refuses to start on the 2018 npm fallback ffmpeg, and /readyz names the
 * ffmpeg build that decodes uploads.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertProductionMediaBinaries,
  isNpmFallbackBinary,
  locateFfmpegBinaries,
  NPM_FFMPEG_REFUSED,
} from '../src/media/ffmpeg-binaries.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { serverRoot } from './helpers/processes.js';

const require = createRequire(import.meta.url);
const npmFfmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const npmFfprobe = (require('@ffprobe-installer/ffprobe') as { path: string }).path;

/** Runs `npm start`'s entry with this environment; resolves with the exit code and output (or 'started'). */
function runServer(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], {
      cwd: serverRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('Roomwalk is running')) proc.kill('SIGKILL');
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.once('exit', (code) => resolve({ code, output }));
  });
}

describe('media binaries', () => {
  it('finds the npm fallback only when no system ffmpeg exists, and production refuses it', () => {
    const fallback = locateFfmpegBinaries({ env: {}, systemDirs: [] });
    expect(fallback).toEqual({ ffmpeg: npmFfmpeg, ffprobe: npmFfprobe });
    expect(isNpmFallbackBinary(fallback.ffmpeg)).toBe(true);
    expect(() => assertProductionMediaBinaries(fallback)).toThrow(NPM_FFMPEG_REFUSED);
    const system = locateFfmpegBinaries({ env: {} });
    expect(system.ffmpeg).toBe('/usr/bin/ffmpeg');
    expect(() => assertProductionMediaBinaries(system)).not.toThrow();
  });

  it('a production worker on the npm ffmpeg exits at once with the message', { timeout: 60_000 }, async () => {
    const env = {
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(40),
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      FFMPEG_PATH: npmFfmpeg,
      FFPROBE_PATH: npmFfprobe,
      LOG_LEVEL: 'error',
    };
    const refused = await runServer({ ...env, ROLE: 'worker' });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(NPM_FFMPEG_REFUSED);
  });
});

describe('readiness', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('names the ffmpeg build in /readyz', async () => {
    const body = (await (await fetch(`${t.url}/readyz`)).json()) as { ok: boolean; ffmpeg: string | null };
    expect(body.ok).toBe(true);
    expect(body.ffmpeg).toMatch(/^ffmpeg version 5\.|^ffmpeg version [6-9]/);
  });
});
