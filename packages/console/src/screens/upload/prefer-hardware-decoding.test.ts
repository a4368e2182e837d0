/**
 * The conversion worker's decoder asks for the hardware decoder for the source's codec only when nothing else was
 * asked, and the worker's own VideoDecoder comes back when it is undone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { preferHardwareDecoding } from './prefer-hardware-decoding.js';

const configured: VideoDecoderConfig[] = [];
class FakeDecoder {
  static isConfigSupported = async () => ({ supported: true });
  constructor(_init: VideoDecoderInit) {}
  configure(config: VideoDecoderConfig) {
    configured.push(config);
  }
}
const scope = globalThis as unknown as { VideoDecoder: unknown };
scope.VideoDecoder = FakeDecoder;

afterEach(() => {
  configured.length = 0;
});

const make = () => new (globalThis as unknown as { VideoDecoder: typeof VideoDecoder }).VideoDecoder({} as never);

describe('preferHardwareDecoding', () => {
  it("adds 'prefer-hardware' to the source codec's config when it states no preference", () => {
    const undo = preferHardwareDecoding('avc1.64002a');
    make().configure({ codec: 'avc1.64002a', hardwareAcceleration: undefined });
    make().configure({ codec: 'avc1.64002a', hardwareAcceleration: 'no-preference', codedWidth: 3840 });
    undo();
    expect(configured).toEqual([
      { codec: 'avc1.64002a', hardwareAcceleration: 'prefer-hardware' },
      { codec: 'avc1.64002a', hardwareAcceleration: 'prefer-hardware', codedWidth: 3840 },
    ]);
  });

  it('keeps a config that asks for the software decoder, and other codecs, as they are', () => {
    const undo = preferHardwareDecoding('avc1.64002a');
    make().configure({ codec: 'avc1.64002a', hardwareAcceleration: 'prefer-software' });
    make().configure({ codec: 'vp09.00.10.08' });
    undo();
    expect(configured).toEqual([
      { codec: 'avc1.64002a', hardwareAcceleration: 'prefer-software' },
      { codec: 'vp09.00.10.08' },
    ]);
  });

  it("gives back the worker's own VideoDecoder, statics included, when undone", async () => {
    const undo = preferHardwareDecoding('avc1.64002a');
    expect(scope.VideoDecoder).not.toBe(FakeDecoder);
    expect(await (scope.VideoDecoder as typeof FakeDecoder).isConfigSupported()).toEqual({ supported: true });
    undo();
    expect(scope.VideoDecoder).toBe(FakeDecoder);
    make().configure({ codec: 'avc1.64002a' });
    expect(configured).toEqual([{ codec: 'avc1.64002a' }]);
  });
});
