package io.turboparquet.testing;

import io.turboparquet.decode.HalfFloat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * A file of unsigned integers and half-precision floats written by parquet-java, for pruning tests:
 * every column rises with the row number, so row groups and pages hold disjoint ranges, and the
 * ranges cross the points where a signed reading would reorder them (2<sup>31</sup> for UINT_32,
 * 2<sup>63</sup> for UINT_64, zero for FLOAT16). Nulls are spread over the optional columns; the
 * FLOAT16 column holds NaN in its first third only, so some row groups have NaN and some do not.
 */
public final class UnsignedFiles {
  public static final int ROWS = 6_000;
  public static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message t { required int32 id; "
      + "required int32 u8 (UINT_8); optional int32 u16 (UINT_16); required int32 u32 (UINT_32); "
      + "optional int64 u64 (UINT_64); optional fixed_len_byte_array(2) h (FLOAT16); }");

  private UnsignedFiles() {}

  /** Writes the file into {@code dir} (made if missing) and returns it, in a list for corpus loops. */
  public static List<Path> write(Path dir) {
    try {
      Files.createDirectories(dir);
      Path file = dir.resolve("unsigned-sorted.parquet");
      SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
      try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
          .withConf(new Configuration()).withType(SCHEMA).withRowGroupSize(16 * 1024).withPageRowCountLimit(200)
          .withDictionaryEncoding(false).build()) {
        for (int i = 0; i < ROWS; i++) {
          Group g = groups.newGroup();
          g.add("id", i);
          g.add("u8", u8(i));
          if (u16(i) != null) {
            g.add("u16", u16(i));
          }
          g.add("u32", (int) u32(i));
          if (u64(i) != null) {
            g.add("u64", u64(i));
          }
          if (h(i) != null) {
            short half = h(i);
            g.add("h", Binary.fromConstantByteArray(new byte[] {(byte) half, (byte) (half >> 8)}));
          }
          w.write(g);
        }
      }
      return List.of(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static int u8(int row) {
    return row * 256 / ROWS;
  }

  public static Integer u16(int row) {
    return row % 17 == 3 ? null : row * 65_536 / ROWS;
  }

  /** As an unsigned value: from 2^31 - 2^16 up to 2^32 - 1 in the last row. */
  public static long u32(int row) {
    long first = (1L << 31) - (1 << 16);
    return row == ROWS - 1 ? 0xFFFF_FFFFL : first + row * ((0xFFFF_FFFFL - first) / ROWS);
  }

  /** As the stored 64 bits: from 2^63 - ROWS/2 up, across 2^63, to 2^64 - 1 in the last row. */
  public static Long u64(int row) {
    return row % 13 == 7 ? null : row == ROWS - 1 ? -1L : Long.MAX_VALUE - ROWS / 2 + row;
  }

  /** Half-precision bits: (row - ROWS/2) / 8, NaN every 500 rows in the first third, null every 19. */
  public static Short h(int row) {
    if (row % 19 == 0) {
      return null;
    }
    return row < ROWS / 3 && row % 500 == 250 ? (short) 0x7E00 : HalfFloat.nearest((row - ROWS / 2) / 8.0);
  }
}
