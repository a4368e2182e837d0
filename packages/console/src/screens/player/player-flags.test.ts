import { describe, expect, it } from 'vitest';
import { MAX_HOST_ORIGINS, playerAttributes, readHostOrigins, readPlayerFlags } from './player-flags.js';

const ID = 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d10';

describe('hostOrigins', () => {
  it('feeds the listing page origins into allowed-origins and turns host events on', () => {
    const f = readPlayerFlags(
      `?tourId=${ID}&hostOrigins=${encodeURIComponent('https://www.agency.example, http://localhost:8080/')}`,
    );
    expect(f.hostOrigins).toEqual(['https://www.agency.example', 'http://localhost:8080']);
    expect(f.hostEvents).toBe(true);
    expect(playerAttributes(f)).toEqual({
      'host-events': '',
      'allowed-origins': 'https://www.agency.example,http://localhost:8080',
    });
  });
  it('keeps only http(s) origins: no wildcard, paths, scripts or credentials', () => {
    expect(
      readHostOrigins(
        '*,javascript:alert(1),https://a.example/page,https://u:p@b.example,ftp://c.example,not a url,https://D.example:8443',
      ),
    ).toEqual(['https://d.example:8443']);
    expect(readHostOrigins(null)).toEqual([]);
    expect(readHostOrigins(Array.from({ length: 30 }, (_, i) => `https://s${i}.example`).join(','))).toHaveLength(
      MAX_HOST_ORIGINS,
    );
    const none = readPlayerFlags(`?tourId=${ID}&hostOrigins=*`);
    expect(none.hostEvents).toBe(false);
    expect(playerAttributes(none)).toEqual({});
  });
});
