// The custom-elements manifest (built from the components' JSDoc) and the README list the same public elements,
// attributes, parts and custom properties, and every event in the manifest has a typed detail.
import { expect } from '@esm-bundle/chai';
import { TourPlayer } from './tour-player/tour-player.component.js';
import { ATTRIBUTES } from './constants.js';

interface Decl {
  members?: { name: string; privacy?: string }[];
  tagName?: string;
  customElement?: boolean;
  attributes?: { name: string }[];
  cssParts?: { name: string }[];
  cssProperties?: { name: string }[];
  events?: { name: string; type?: { text: string } }[];
}
type Lists = { attributes: string[]; parts: string[]; properties: string[] };

const BASE = '/packages/player-element';
const names = (text: string): string[] =>
  [...text.matchAll(/`([^`<>]+)`/g)].map((m) => m[1]!).filter((n) => /^(--)?[a-z][a-z0-9-]*$/.test(n));
const sorted = (a: string[]) => [...new Set(a)].sort();

async function manifest(): Promise<Map<string, Decl>> {
  const m = (await (await fetch(`${BASE}/custom-elements.json`)).json()) as { modules: { declarations?: Decl[] }[] };
  const out = new Map<string, Decl>();
  for (const mod of m.modules)
    for (const d of mod.declarations ?? []) if (d.customElement && d.tagName) out.set(d.tagName, d);
  return out;
}

function fromManifest(d: Decl): Lists {
  return {
    attributes: sorted((d.attributes ?? []).map((a) => a.name)),
    parts: sorted((d.cssParts ?? []).map((p) => p.name)),
    properties: sorted((d.cssProperties ?? []).map((p) => p.name)),
  };
}

/** The README: the <tour-player> attribute table and Styling section, and one bullet per other element. */
function fromReadme(readme: string): Map<string, Lists> {
  const out = new Map<string, Lists>();
  const section = (title: string) => readme.split(/^## /m).find((s) => s.startsWith(title)) ?? '';
  const table = section('Attributes and properties')
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) => l.split('|')[1]!);
  const styling = section('Styling');
  const after = (text: string, label: string, until: RegExp) => {
    const i = text.indexOf(label);
    if (i < 0) return [];
    const rest = text.slice(i + label.length);
    const end = rest.search(until);
    return names(end < 0 ? rest : rest.slice(0, end));
  };
  out.set('tour-player', {
    attributes: sorted(table.flatMap(names)),
    parts: sorted(after(styling, 'Parts:', /Custom properties:/)),
    properties: sorted(after(styling, 'Custom properties:', /\n\n/)),
  });
  for (const m of styling.matchAll(/^- `<([a-z-]+)>`([\s\S]*?)(?=\n- |\n\n|(?![\s\S]))/gm)) {
    const body = m[2]!;
    out.set(m[1]!, {
      attributes: sorted(after(body, 'attributes', /; parts|; custom/)),
      parts: sorted(after(body, 'parts', /; custom/)),
      properties: sorted(after(body, 'custom properties', /\. Events/)),
    });
  }
  return out;
}

describe('custom-elements manifest and README', () => {
  it('cover the same elements, attributes, parts and custom properties', async () => {
    const m = await manifest();
    const r = fromReadme(await (await fetch(`${BASE}/README.md`)).text());
    expect(sorted([...m.keys()])).to.deep.equal(['tour-live-panel', 'tour-markers-drawer', 'tour-player']);
    expect(sorted([...r.keys()])).to.deep.equal(sorted([...m.keys()]));
    for (const [tag, decl] of m) expect(r.get(tag), tag).to.deep.equal(fromManifest(decl));
  });

  it('types every event detail', async () => {
    for (const [tag, decl] of await manifest()) {
      for (const e of decl.events ?? []) expect(e.type?.text, `${tag} ${e.name}`).to.match(/^CustomEvent<.+>$/s);
    }
    const player = (await manifest()).get('tour-player')!;
    expect(player.events!.find((e) => e.name === 'tour-room-change')!.type!.text).to.contain('room: string | null');
  });
});

describe('public API', () => {
  it('the manifest lists only the public members (no internal state or controllers)', async () => {
    const members = (tag: string) => async () =>
      sorted(((await manifest()).get(tag)!.members ?? []).map((m) => m.name));
    expect(await members('tour-player')()).to.deep.equal(
      sorted([
        ...Object.values(ATTRIBUTES),
        'authToken',
        'loadingTimeoutMs',
        'tour',
        'currentFrame',
        'totalFrames',
        'loadedFrameCount',
        'activeMarker',
        'currentRoom',
        'playerStatus',
        'travelStatus',
        'displayed',
        'stats',
        'goToFrame',
        'goToMarker',
        'goToRoom',
        'refresh',
      ]),
    );
    expect(await members('tour-markers-drawer')()).to.deep.equal(
      sorted([
        'markers',
        'frame',
        'loadedFrames',
        'travelling',
        'editable',
        'superAdmin',
        'savingIds',
        'deletingIds',
        'addState',
        'ai',
      ]),
    );
  });

  it("the element's attributes are ATTRIBUTES (kebab attribute -> camelCase property), home-url included", () => {
    expect(sorted(TourPlayer.observedAttributes)).to.deep.equal(sorted(Object.keys(ATTRIBUTES)));
    const fromClass = [...TourPlayer.elementProperties]
      .filter(([, o]) => o.attribute !== false)
      .map(([name, o]) => [o.attribute, name]);
    expect(Object.fromEntries(fromClass)).to.deep.equal({ ...ATTRIBUTES });
    expect(ATTRIBUTES['home-url']).to.equal('homeUrl');
  });

  it('every event of every element is a tour-* event', async () => {
    for (const [tag, decl] of await manifest())
      for (const e of decl.events ?? []) expect(e.name, tag).to.match(/^tour-[a-z-]+$/);
  });
});
