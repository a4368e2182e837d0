/**
 * A pass-through stream that counts bytes and fails as soon as more than `max` arrive: request bodies (chunked ones
 * carry no length up front) and upload parts are cut off at their limit instead of being stored and checked after.
 */
import { Transform, type TransformCallback } from 'node:stream';

export class ByteLimit extends Transform {
  bytes = 0;
  /** `tooLarge` makes the error the stream fails with; `observe` sees every chunk that passes (a hash, say). */
  constructor(
    private readonly max: number,
    private readonly tooLarge: () => Error,
    private readonly observe?: (chunk: Buffer) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.max) {
      done(this.tooLarge());
      return;
    }
    this.observe?.(chunk);
    done(null, chunk);
  }
}
