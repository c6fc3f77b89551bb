package io.turboparquet.cli;

import io.netty.buffer.ByteBuf;
import io.turboparquet.decode.ValueSink;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.scan.ColumnBatch;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The digest contract of DESIGN.md for one column: a SHA-256 over its values in file order, with
 * a marker byte per row for flat columns and the level bytes per entry for nested ones.
 */
public final class ColumnDigest {
  private final ColumnDescriptor column;
  private final MessageDigest sha;
  private final byte[] out = new byte[1 << 16];
  private int outLength;
  private byte[] values = new byte[0];
  private byte[] offsets = new byte[0];
  private long nonNull;
  private long nulls;

  public ColumnDigest(ColumnDescriptor column) {
    this.column = column;
    try {
      this.sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  public void accept(ColumnBatch batch) {
    ValueSink sink = batch.values();
    int slots = sink.position();
    int width = sink.width();
    int valueBytes = sink.isVariableWidth() ? sink.dataLength() : slots * width;
    values = copy(sink.values(), valueBytes, values);
    if (sink.isVariableWidth()) {
      offsets = copy(sink.offsets(), (slots + 1) * 4, offsets);
    }
    if (column.isFlat()) {
      ByteBuf validity = batch.validity();
      for (int row = 0; row < batch.rowCount(); row++) {
        if (validity != null && validity.getByte(row) == 0) {
          put((byte) 0);
          nulls++;
        } else {
          put((byte) 1);
          value(row, width);
          nonNull++;
        }
      }
    } else {
      ByteBuf rep = batch.repetitionLevels();
      ByteBuf def = batch.definitionLevels();
      int max = column.maxDefinitionLevel();
      int slot = 0;
      for (int i = 0; i < batch.entryCount(); i++) {
        byte d = def.getByte(i);
        put(rep.getByte(i));
        put(d);
        if ((d & 0xff) == max) {
          value(slot++, width);
          nonNull++;
        } else {
          nulls++;
        }
      }
    }
  }

  private void value(int slot, int width) {
    if (width > 0) {
      put(values, slot * width, width);
    } else {
      int start = intLE(offsets, slot * 4);
      int end = intLE(offsets, slot * 4 + 4);
      int length = end - start;
      put((byte) length);
      put((byte) (length >>> 8));
      put((byte) (length >>> 16));
      put((byte) (length >>> 24));
      put(values, start, length);
    }
  }

  private static int intLE(byte[] b, int i) {
    return (b[i] & 0xff) | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff) << 16 | (b[i + 3] & 0xff) << 24;
  }

  private static byte[] copy(ByteBuf src, int length, byte[] reuse) {
    byte[] dst = reuse.length >= length ? reuse : new byte[Math.max(length, reuse.length * 2)];
    if (length > 0) {
      src.getBytes(0, dst, 0, length);
    }
    return dst;
  }

  private void put(byte b) {
    if (outLength == out.length) {
      flush();
    }
    out[outLength++] = b;
  }

  private void put(byte[] src, int offset, int length) {
    if (length > out.length - outLength) {
      flush();
      if (length > out.length) {
        sha.update(src, offset, length);
        return;
      }
    }
    System.arraycopy(src, offset, out, outLength, length);
    outLength += length;
  }

  private void flush() {
    sha.update(out, 0, outLength);
    outLength = 0;
  }

  /** {@code path<TAB>TYPE<TAB>non_null<TAB>null<TAB>sha256hex} */
  public String line() {
    flush();
    return column.dottedPath() + "\t" + column.physicalType() + "\t" + nonNull + "\t" + nulls + "\t"
        + HexFormat.of().formatHex(sha.digest());
  }
}
