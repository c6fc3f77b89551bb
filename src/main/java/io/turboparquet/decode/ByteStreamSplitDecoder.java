package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.PhysicalType;

/**
 * BYTE_STREAM_SPLIT: byte j of value i lives at {@code j * N + i}, N being the values in the
 * section. Each chunk copies its slice of every stream to the heap in bulk, interleaves there, and
 * writes the sink with one bulk copy.
 */
final class ByteStreamSplitDecoder implements ValuesDecoder {
  private static final int STAGE_BYTES = 1 << 15;

  private final String name;
  private final int width;
  private final int chunk;
  private final byte[] streams;
  private final byte[] values;
  private ByteBuf page;
  private int base;
  private int stride;
  private int next;
  private int left;

  ByteStreamSplitDecoder(PhysicalType type, int width) {
    this.name = "BYTE_STREAM_SPLIT " + type;
    this.width = width;
    this.chunk = Math.max(1, Math.min(1024, STAGE_BYTES / width));
    this.streams = new byte[chunk * width];
    this.values = new byte[chunk * width];
  }

  @Override
  public void init(ByteBuf page, int offset, int length, int valueCount) {
    Sections.checkInit(name, page, offset, length, valueCount);
    if (length % width != 0 || length / width < valueCount) {
      throw new DecodeException(name + " section of " + length + " bytes does not split into " + width
          + " streams of at least " + valueCount + " values");
    }
    this.page = page;
    this.base = offset;
    this.stride = length / width;
    this.next = 0;
    this.left = valueCount;
  }

  @Override
  public void read(ValueSink sink, int n) {
    Sections.checkCount(name, n, left);
    ByteBuf out = sink.reserve(n);
    int at = sink.writeIndex();
    int w = width;
    for (int done = 0; done < n; ) {
      int k = Math.min(chunk, n - done);
      for (int j = 0; j < w; j++) {
        page.getBytes(base + j * stride + next, streams, j * k, k);
      }
      for (int j = 0; j < w; j++) {
        int s = j * k;
        for (int i = 0; i < k; i++) {
          values[i * w + j] = streams[s + i];
        }
      }
      out.setBytes(at + done * w, values, 0, k * w);
      next += k;
      done += k;
    }
    sink.advance(n);
    left -= n;
  }

  @Override
  public void skip(int n) {
    Sections.checkCount(name, n, left);
    next += n;
    left -= n;
  }
}
