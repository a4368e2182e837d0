/**
 * The conversion worker's decoder asked for `hardwareAcceleration: 'prefer-hardware'` where the device said it has a
 * hardware decoder for the source (docs/upload-conversion.md, "Decoding: hardware where there is one").
 *
 * mediabunny's `Conversion` decodes through its own decoder wrapper and passes no `hardwareAcceleration` to it (its
 * `VideoSampleSink` takes the option, but `Conversion` makes its sinks without options). Its supported way in,
 * `registerDecoder` with a `CustomVideoDecoder`, replaces that wrapper altogether, and with it the browser workarounds
 * it applies before and around `VideoDecoder` in Chromium (interlaced H.264 sent to the software decoder, the SPS
 * rewritten so B-frames are not lost, the first H.264 packet's NAL units filtered, output timestamps taken from the
 * input's). So the option is added where it is finally used instead: the worker's `VideoDecoder` becomes a subclass
 * whose `configure` adds `'prefer-hardware'` for the source's codec when the config states no preference (a config
 * that asks for the software decoder, as the interlaced workaround does, keeps it). Nothing else changes, and this
 * runs only in the conversion worker.
 */
export function preferHardwareDecoding(codec: string): () => void {
  const scope = globalThis as { VideoDecoder: typeof VideoDecoder };
  const Native = scope.VideoDecoder;
  class PreferHardwareVideoDecoder extends Native {
    override configure(config: VideoDecoderConfig): void {
      const ask = config.codec === codec && (config.hardwareAcceleration ?? 'no-preference') === 'no-preference';
      super.configure(ask ? { ...config, hardwareAcceleration: 'prefer-hardware' } : config);
    }
  }
  scope.VideoDecoder = PreferHardwareVideoDecoder;
  return () => {
    scope.VideoDecoder = Native;
  };
}
