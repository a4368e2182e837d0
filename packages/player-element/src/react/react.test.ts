import { expect } from '@esm-bundle/chai';
import '../tour-player/tour-player.js';
import { real, server, until } from '../../test/helpers.js';

// On the real server's main tour (180 frames: totalFrames 179).
describe('React wrapper (@lit/react)', () => {
  it('passes props to <tour-player> and maps tour-* events to callbacks', async () => {
    // @ts-expect-error bundled on the fly by the test runner config
    const { mount } = (await import('/__react-entry.js')) as {
      mount(el: HTMLElement, props: Record<string, unknown>): { unmount(): void };
    };
    const container = document.createElement('div');
    document.body.append(container);
    const seen: string[] = [];
    const root = mount(container, {
      tourId: real.main,
      api: server,
      mode: 'external',
      style: { display: 'block', width: '900px', height: '500px' },
      onTourReady: (e: CustomEvent<{ totalFrames: number }>) => seen.push(`ready:${e.detail.totalFrames}`),
      onTourStatusChange: (e: CustomEvent<{ status: string }>) => seen.push(`status:${e.detail.status}`),
    });
    const el = container.querySelector('tour-player')!;
    expect(el.tourId).to.equal(real.main);
    await until(() => seen.includes('ready:179'), 'onTourReady');
    expect(seen).to.include('status:ready');
    root.unmount();
    container.remove();
  });
});
