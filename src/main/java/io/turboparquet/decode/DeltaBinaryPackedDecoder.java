package io.turboparquet.decode;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.PhysicalType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** DELTA_BINARY_PACKED for INT32 and INT64: decoded a chunk at a time, written with one bulk copy per chunk. */
final class DeltaBinaryPackedDecoder implements ValuesDecoder {
  private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int CHUNK = 1024;

  private final String name;
  private final int width;
  private final DeltaBinaryPackedReader reader;
  private final long[] values = new long[CHUNK];
  private final byte[] bytes;
  private int left;

  DeltaBinaryPackedDecoder(PhysicalType type) {
    this.name = "DELTA_BINARY_PACKED " + type;
    this.width = switch (type) {
      case INT32 -> 4;
      case INT64 -> 8;
      default -> throw new IllegalArgumentException(name + " is not supported");
    };
    this.reader = new DeltaBinaryPackedReader(name, width * 8);
    this.bytes = new byte[CHUNK * width];
  }

  @Override
  public void init(ByteBuf page, int offset, int length, int valueCount) {
    Sections.checkInit(name, page, offset, length, valueCount);
    reader.init(page, offset, length);
    if (reader.totalCount() < valueCount) {
      throw new DecodeException(name + " header declares " + reader.totalCount() + " values but the page has "
          + valueCount);
    }
    left = valueCount;
  }

  @Override
  public void read(ValueSink sink, int n) {
    Sections.checkCount(name, n, left);
    ByteBuf out = sink.reserve(n);
    int at = sink.writeIndex();
    for (int done = 0; done < n; ) {
      int k = Math.min(CHUNK, n - done);
      reader.readLongs(values, 0, k);
      if (width == 4) {
        for (int i = 0; i < k; i++) {
          INTS.set(bytes, i << 2, (int) values[i]);
        }
      } else {
        for (int i = 0; i < k; i++) {
          LONGS.set(bytes, i << 3, values[i]);
        }
      }
      out.setBytes(at + done * width, bytes, 0, k * width);
      done += k;
    }
    sink.advance(n);
    left -= n;
  }

  @Override
  public void skip(int n) {
    Sections.checkCount(name, n, left);
    reader.skip(n);
    left -= n;
  }
}
