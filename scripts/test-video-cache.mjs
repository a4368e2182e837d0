/**
 * The test videos' one cache: every video (or folder of clips) a test makes with ffmpeg is made once per machine and
 * kept in the temp folder under a hash of what makes it (the ffmpeg arguments and the ffmpeg build's version line), so
 * the server's tests, the player's browser tests and the console's journeys share one copy of each, a changed command
 * makes its file again, and a new ffmpeg makes every file again.
 *
 * An entry is a folder: made in a private temp folder, then renamed into place, so two test processes that make the
 * same entry at once never read half a file (the second rename fails and its copy is dropped).
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where the entries live (one folder per key). */
const TEST_VIDEO_CACHE = path.join(os.tmpdir(), 'roomwalk-test-videos-v2');
/** ffmpeg's own flags that change what it prints, not what it writes: left out of the key. */
const QUIET = ['-nostdin', '-hide_banner', '-y'];
const QUIET_WITH_VALUE = ['-v', '-loglevel'];

const versions = new Map();
/** The first line of `ffmpeg -version` (the build), once per process and binary. */
function ffmpegVersion(ffmpeg) {
  let v = versions.get(ffmpeg);
  if (v === undefined) {
    v = execFileSync(ffmpeg, ['-version'], { encoding: 'utf8' }).split('\n')[0] ?? '';
    versions.set(ffmpeg, v);
  }
  return v;
}

/** The arguments that decide an output: without the log and overwrite flags. */
function decisive(args) {
  const out = [];
  for (let i = 0; i < args.length; i++) {
    if (QUIET.includes(args[i])) continue;
    if (QUIET_WITH_VALUE.includes(args[i])) {
      i++;
      continue;
    }
    out.push(args[i]);
  }
  return out;
}

/** The key of an entry: the ffmpeg build and every ffmpeg command that makes it (arrays of arguments). */
function keyOf(ffmpeg, commands) {
  return createHash('sha256')
    .update(ffmpegVersion(ffmpeg))
    .update('\0')
    .update(JSON.stringify(commands.map((c) => (Array.isArray(c) ? decisive(c) : c))))
    .digest('hex')
    .slice(0, 20);
}

function place(work, dir) {
  try {
    renameSync(work, dir);
  } catch (err) {
    // Another process made the same entry meanwhile: keep its copy (it may be in use).
    if (!existsSync(dir)) throw err;
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The folder of the entry `commands` names, made by `make(folder)` the first time on this machine. `commands` are the
 * ffmpeg argument lists (or other plain values) that `make` runs; `ffmpeg` is the binary they run with.
 * @param {unknown[]} commands
 * @param {(dir: string) => Promise<void>} make
 * @param {{ ffmpeg?: string }} [o]
 * @returns {Promise<string>}
 */
export async function cachedFolder(commands, make, o = {}) {
  const dir = path.join(TEST_VIDEO_CACHE, keyOf(o.ffmpeg ?? 'ffmpeg', commands));
  if (existsSync(dir)) return dir;
  await fs.mkdir(TEST_VIDEO_CACHE, { recursive: true });
  const work = await fs.mkdtemp(`${dir}.making-`);
  try {
    await make(work);
  } catch (err) {
    await fs.rm(work, { recursive: true, force: true });
    throw err;
  }
  place(work, dir);
  return dir;
}

/** cachedFolder for callers that cannot wait on a promise (web-test-runner's config, Playwright's sync helpers). */
export function cachedFolderSync(commands, make, o = {}) {
  const dir = path.join(TEST_VIDEO_CACHE, keyOf(o.ffmpeg ?? 'ffmpeg', commands));
  if (existsSync(dir)) return dir;
  mkdirSync(TEST_VIDEO_CACHE, { recursive: true });
  const work = mkdtempSync(`${dir}.making-`);
  try {
    make(work);
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
  place(work, dir);
  return dir;
}

/**
 * The file `ffmpeg ...args <file>` writes, made once per machine; `name` is the file's name in its entry (its
 * extension tells ffmpeg the container unless `args` name one with -f).
 * @param {string[]} args
 * @param {{ name?: string, ffmpeg?: string, timeout?: number }} [o]
 * @returns {Promise<string>}
 */
export async function cachedVideo(args, o = {}) {
  const name = o.name ?? 'video.mp4';
  const ffmpeg = o.ffmpeg ?? 'ffmpeg';
  const dir = await cachedFolder(
    [args, name],
    async (work) => {
      await run(ffmpeg, ['-nostdin', '-hide_banner', '-v', 'error', '-y', ...args, path.join(work, name)], {
        timeout: o.timeout ?? 600_000,
      });
    },
    { ffmpeg },
  );
  return path.join(dir, name);
}

/** cachedVideo, synchronously. */
export function cachedVideoSync(args, o = {}) {
  const name = o.name ?? 'video.mp4';
  const ffmpeg = o.ffmpeg ?? 'ffmpeg';
  const dir = cachedFolderSync(
    [args, name],
    (work) => {
      execFileSync(ffmpeg, ['-nostdin', '-hide_banner', '-v', 'error', '-y', ...args, path.join(work, name)], {
        stdio: ['ignore', 'ignore', 'inherit'],
        timeout: o.timeout ?? 600_000,
      });
    },
    { ffmpeg },
  );
  return path.join(dir, name);
}
