/**
 * The socket's contract is written once: no wire name of a socket message is a string literal in any package's
 * source outside packages/shared. Tests are exempt (they speak the raw protocol on purpose, to check the server as
 * a client would); comments may name a message. Also the schemas themselves: what each end accepts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  clientScrollingSchema,
  clientSignalSchema,
  GATE_SOCKET_MESSAGES,
  gateServerMessageSchema,
  gateWaitSchema,
  LIVE_SOCKET_MESSAGES,
  liveServerMessageSchema,
  parseSocketMessage,
} from './socket-messages.js';

const PACKAGES = join(import.meta.dirname, '../../..');
const NAMES = [...Object.values(LIVE_SOCKET_MESSAGES), ...Object.values(GATE_SOCKET_MESSAGES)];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|tsx|js|mjs)$/.test(e.name) && !/\.(test|spec)\.(ts|tsx|js|mjs)$/.test(e.name)) out.push(path);
  }
  return out;
}

/** The file's text without its comments (roughly: enough that a name in a comment is not taken for a literal). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** The socket message names written as a string literal (quoted whole) in a text. */
function literalNames(text: string): string[] {
  const code = withoutComments(text);
  return NAMES.filter((name) => new RegExp(`['"\`]${name}['"\`]`).test(code));
}

describe('socket message names', () => {
  it('finds a name written as a literal, and none in comments', () => {
    expect(literalNames(`const a = { type: 'roomwalk_gate_open' };`)).toEqual([GATE_SOCKET_MESSAGES.open]);
    expect(literalNames(`if (m.type === "roomwalk_welcome") {}`)).toEqual([LIVE_SOCKET_MESSAGES.welcome]);
    expect(literalNames('/** sends `roomwalk_signal` */\n// roomwalk_error\nconst b = 1;')).toEqual([]);
  });

  it('are written as string literals nowhere outside packages/shared (tests exempt)', () => {
    const found: string[] = [];
    for (const pkg of readdirSync(PACKAGES)) {
      if (pkg === 'shared') continue;
      const root = join(PACKAGES, pkg);
      for (const sub of ['src', 'e2e', 'bench', 'scripts']) {
        let files: string[];
        try {
          files = sourceFiles(join(root, sub));
        } catch {
          continue;
        }
        for (const f of files)
          for (const n of literalNames(readFileSync(f, 'utf8'))) found.push(`${f.slice(PACKAGES.length + 1)}: ${n}`);
      }
    }
    expect(found).toEqual([]);
  });
});

describe('socket message schemas', () => {
  it('the server takes a scroll and a signal as clients send them, and refuses others with its texts', () => {
    expect(
      clientScrollingSchema.safeParse({ type: LIVE_SOCKET_MESSAGES.scrolling, data: { frameIndex: 3 } }).success,
    ).toBe(true);
    const bad = clientScrollingSchema.safeParse({ type: LIVE_SOCKET_MESSAGES.scrolling, data: { frameIndex: -1 } });
    expect(bad.error?.issues[0]?.message).toBe('frameIndex must be a finite number');
    const wrongTour = clientScrollingSchema.safeParse({
      type: LIVE_SOCKET_MESSAGES.scrolling,
      data: { frameIndex: 1 },
      tourId: 5,
    });
    expect(wrongTour.error?.issues[0]?.message).toBe('Wrong tourId for this room');
    const offer = { type: LIVE_SOCKET_MESSAGES.signal, data: { kind: 'offer', sdp: 'v=0' }, to: 'p1' };
    expect(clientSignalSchema.parse(offer)).toEqual(offer); // relayed as sent
    expect(clientSignalSchema.safeParse({ type: LIVE_SOCKET_MESSAGES.signal, data: { kind: 'x' } }).success).toBe(
      false,
    );
    expect(parseSocketMessage(gateWaitSchema, JSON.stringify({ type: GATE_SOCKET_MESSAGES.wait, token: 't' }))).toEqual(
      {
        type: GATE_SOCKET_MESSAGES.wait,
        token: 't',
      },
    );
  });

  it('the player takes what the server sends and drops what does not parse', () => {
    const joined = { type: LIVE_SOCKET_MESSAGES.peerJoined, peer: { peerId: 'a', role: 'host', userId: 'u' } };
    expect(parseSocketMessage(liveServerMessageSchema, JSON.stringify(joined))).toEqual(joined);
    expect(parseSocketMessage(liveServerMessageSchema, '{"type":"roomwalk_welcome"}')).toBeNull();
    expect(parseSocketMessage(liveServerMessageSchema, 'not json')).toBeNull();
    expect(parseSocketMessage(gateServerMessageSchema, JSON.stringify({ type: GATE_SOCKET_MESSAGES.open }))).toBeNull();
    expect(
      parseSocketMessage(gateServerMessageSchema, JSON.stringify({ type: GATE_SOCKET_MESSAGES.open, access: 'p' })),
    ).toEqual({ type: GATE_SOCKET_MESSAGES.open, access: 'p' });
  });
});
