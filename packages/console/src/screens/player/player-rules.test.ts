import { describe, expect, it } from 'vitest';
import { embeddedTourId, playerAttributes, readPlayerFlags, showAiEdit, EMBED_SAMPLE_TOUR_ID } from './player-flags.js';
import { menuItems, menuTitle } from './player-menu.js';
import { modeForPath, shareFromHereLink } from './player-rules.js';

const ID = 'tour_0b6c9d9e-2a7e-4f61-9d55-6a3f3c1f1a10';

describe('player flags', () => {
  it('maps the address flags onto element attributes', () => {
    const f = readPlayerFlags(
      `?tourId=${ID}&disabledControls=Menu, MARKERS,bogus&liveViewing=true&hiRes=false&debugPlayer=1&disableCookies=true`,
    );
    expect(f).toMatchObject({
      tourId: ID,
      disabledControls: ['menu', 'markers'],
      liveViewing: true,
      hostEvents: true,
      hiRes: false,
      debug: true,
      disableCookies: true,
    });
    expect(playerAttributes(f)).toEqual({
      'disabled-controls': 'menu,markers',
      'live-viewing': '',
      'host-events': '',
      'hi-res': 'false',
      debug: '',
    });
    expect(playerAttributes(readPlayerFlags(`?tourId=${ID}&hostEventEnabled=true`))).toEqual({ 'host-events': '' });
    expect(playerAttributes(readPlayerFlags(`?tourId=${ID}`))).toEqual({});
  });
  it('shows AI Edit for enableAIEdit=true unless ai-edit is disabled or live viewing is on', () => {
    expect(showAiEdit('?enableAIEdit=true')).toBe(true);
    expect(showAiEdit('?enableAIEdit=TRUE&disabledControls=ai-edit')).toBe(false);
    expect(showAiEdit('?enableAIEdit=true&liveViewing=true')).toBe(false);
    expect(showAiEdit('?enableAIEdit=yes')).toBe(false);
  });
  it('takes the embed id from the last segment, or the sample for /embedded_example', () => {
    expect(embeddedTourId('/embedded_example')).toBe(EMBED_SAMPLE_TOUR_ID);
    expect(embeddedTourId('/embedded_example/')).toBe(EMBED_SAMPLE_TOUR_ID);
    expect(embeddedTourId(`/embedded_example/${ID}`)).toBe(ID);
  });
  it('has the menus of each mode', () => {
    expect(menuTitle('edit')).toBe('Player Menu (Edit Mode)');
    expect(menuItems('edit').map((i) => i.label)).toEqual([
      'Sharing Options',
      'Share from here',
      'Preview Tour',
      'Save & Exit',
    ]);
    expect(menuItems('preview').map((i) => i.label)).toEqual(['Edit Tour', 'Share from here', 'Exit Preview']);
    expect(menuItems('external').map((i) => i.label)).toEqual(['Share from here', 'Exit Tour']);
    expect(modeForPath('/editplayer')).toBe('edit');
    expect(modeForPath('/agentplayer/')).toBe('agent');
    expect(modeForPath('/playerext')).toBe('external');
  });
});

describe('share from here', () => {
  it('opens at the room, else the frame, and keeps an audience link', () => {
    const base = 'https://roomwalk.example';
    expect(shareFromHereLink(ID, { room: 'Main Bedroom', frame: 40 }, '', base)).toBe(
      `${base}/playerext?tourId=${ID}&room=Main%20Bedroom`,
    );
    expect(shareFromHereLink(ID, { room: null, frame: 40 }, '', base)).toBe(`${base}/playerext?tourId=${ID}&frame=40`);
    expect(shareFromHereLink(ID, { room: null, frame: 0 }, 'lnk_abc', base)).toBe(
      `${base}/playerext?tourId=${ID}&link=lnk_abc`,
    );
  });
});
