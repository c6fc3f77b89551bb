package io.turboparquet.fuzz;

import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.PageIndexLocation;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.format.thrift.FooterDecoder;
import io.turboparquet.testing.CorpusFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Writes {@link CoverageTarget}'s seed inputs: small parquet-testing files whole, and their footers,
 * page headers, page indexes and bloom filter headers cut out, each behind its part's byte; a few
 * values, levels, dictionary and codec inputs by hand. Jazzer starts from these and keeps what
 * reaches new code. Run once when the parts change:
 * {@code java -cp ... io.turboparquet.fuzz.CoverageSeeds src/test/resources/fuzz/jazzer}.
 */
public final class CoverageSeeds {
  private static final List<String> FILES = List.of("alltypes_plain.parquet", "alltypes_dictionary.parquet",
      "datapage_v2.snappy.parquet", "delta_length_byte_array.parquet", "byte_stream_split.zstd.parquet",
      "nested_lists.snappy.parquet", "nested_maps.snappy.parquet", "rle_boolean_encoding.parquet",
      "hadoop_lz4_compressed.parquet", "lz4_raw_compressed.parquet", "nulls.snappy.parquet",
      "int32_with_null_pages.parquet", "fixed_length_byte_array.parquet", "byte_array_decimal.parquet",
      "single_nan.parquet", "alltypes_tiny_pages.parquet");

  /** Whole files past this size would make every input that long (libFuzzer's max_len follows the seeds). */
  private static final int MAX_WHOLE_FILE = 8 << 10;

  private CoverageSeeds() {}

  public static void main(String[] args) throws IOException {
    Path out = Paths.get(args[0]);
    Files.createDirectories(out);
    for (String name : FILES) {
      byte[] file = Files.readAllBytes(CorpusFiles.file(name));
      String stem = name.replace(".parquet", "");
      if (file.length <= MAX_WHOLE_FILE) {
        write(out, "file-" + stem, CoverageTarget.Part.FILE, concat(new byte[] {1}, file));
      }
      int footerLength = ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      int footerStart = file.length - 8 - footerLength;
      write(out, "footer-" + stem, CoverageTarget.Part.FOOTER,
          Arrays.copyOfRange(file, footerStart, footerStart + footerLength));
      FileMetadata meta = FooterDecoder.decode(name, file.length, file, footerStart, footerLength);
      ColumnChunkMeta chunk = meta.rowGroups().get(0).columns().get(0);
      write(out, "page-header-" + stem, CoverageTarget.Part.PAGE_HEADER, slice(file, chunk.startOffset(), 256));
      for (RowGroupMeta g : meta.rowGroups()) {
        for (ColumnChunkMeta c : g.columns()) {
          PageIndexLocation index = c.pageIndex();
          if (index != null && index.hasColumnIndex() && g.index() == 0 && c.column().index() < 3) {
            write(out, "column-index-" + stem + "-" + c.column().index(), CoverageTarget.Part.COLUMN_INDEX,
                slice(file, index.columnIndexOffset(), index.columnIndexLength()));
            write(out, "offset-index-" + stem + "-" + c.column().index(), CoverageTarget.Part.OFFSET_INDEX,
                slice(file, index.offsetIndexOffset(), index.offsetIndexLength()));
          }
        }
      }
    }
    HexFormat hex = HexFormat.of();
    // VALUES: encoding ordinal, type ordinal, type length, count (2 bytes), seed, [dictionary], values.
    write(out, "values-plain-int32", CoverageTarget.Part.VALUES, hex.parseHex("0001000004070100000002000000030000000400000"
        + "0"));
    write(out, "values-plain-binary", CoverageTarget.Part.VALUES, hex.parseHex("000600000303"
        + "0100000061" + "020000006263" + "00000000"));
    write(out, "values-rle-dictionary-int32", CoverageTarget.Part.VALUES, hex.parseHex("07010000080b"
        + "03" + "000c" + "0a0000001400000030000000" + "02" + "0800" + "0301e4"));
    write(out, "values-delta-binary-packed-int64", CoverageTarget.Part.VALUES, hex.parseHex("040200000805"
        + "8001" + "04" + "08" + "02" + "00" + "02" + "00000000" + "030000000000000000000000000000000000000000"));
    write(out, "values-delta-length-binary", CoverageTarget.Part.VALUES, hex.parseHex("050600000309"
        + "8001" + "04" + "03" + "02" + "02" + "00000000" + "616263646566"));
    write(out, "values-delta-byte-array", CoverageTarget.Part.VALUES, hex.parseHex("060600000209"
        + "8001" + "04" + "02" + "00" + "00" + "00000000" + "8001" + "04" + "02" + "04" + "00" + "00000000" + "6162"));
    write(out, "values-byte-stream-split-double", CoverageTarget.Part.VALUES, hex.parseHex("080500000201"
        + "00000000000000f03f00000000000000400000000000000000"));
    write(out, "values-rle-boolean", CoverageTarget.Part.VALUES, hex.parseHex("030000000811" + "02000000" + "1001"));
    // BLOOM_HEADER: 32 bytes, BLOCK, XXHASH, UNCOMPRESSED, then a bitset's first bytes.
    write(out, "bloom-header", CoverageTarget.Part.BLOOM_HEADER, hex.parseHex("15401c1c00001c1c00001c1c000000"
        + "0102030405060708"));
    // LEVELS: bit width, count (2 bytes), seed, levels.
    write(out, "levels-rle", CoverageTarget.Part.LEVELS, hex.parseHex("01002005" + "2001" + "0301ff"));
    write(out, "levels-wide", CoverageTarget.Part.LEVELS, hex.parseHex("11000809" + "03" + "0102030405060708090a0b0c"
        + "0d0e0f101112131415161718"));
    // DICTIONARY: type ordinal, type length, count (2 bytes), PLAIN entries.
    write(out, "dictionary-binary", CoverageTarget.Part.DICTIONARY, hex.parseHex("06000002" + "0100000061020000006263"));
    write(out, "dictionary-flba", CoverageTarget.Part.DICTIONARY, hex.parseHex("07010002" + "61626364"));
    // DECOMPRESS: codec ordinal, claimed size (2 bytes), body: SNAPPY of "aaaaaaaa".
    write(out, "decompress-snappy", CoverageTarget.Part.DECOMPRESS, hex.parseHex("010008" + "080061" + "0e0100"));
  }

  private static byte[] slice(byte[] file, long offset, int length) {
    int from = (int) Math.max(0, Math.min(offset, file.length));
    return Arrays.copyOfRange(file, from, (int) Math.min(file.length, (long) from + length));
  }

  private static byte[] concat(byte[] a, byte[] b) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(a);
    out.writeBytes(b);
    return out.toByteArray();
  }

  private static void write(Path dir, String name, CoverageTarget.Part part, byte[] body) throws IOException {
    Files.write(dir.resolve(name), concat(new byte[] {(byte) part.ordinal()}, body));
  }
}
