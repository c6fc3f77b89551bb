package io.turboparquet.testing;

import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageType;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.thrift.CompactWriter;
import io.turboparquet.format.thrift.PageHeaderDecoder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Crafted corrupt files, one method per class of damage, each made deterministically from a file
 * parquet-java wrote by editing bytes. Page positions come from the footer and our own page-header
 * decoder; the footer is edited through parquet-format's Thrift structs ({@link FooterRewrite}) or,
 * where Thrift would not write the damage, byte by byte with the test {@link CompactWriter}.
 */
public final class CorruptFiles {
  /** Rows of the base file; one row group, one data page per column. */
  public static final int ROWS = 1000;
  /** Distinct values of each dictionary-encoded column of the base file. */
  public static final int DISTINCT = 10;
  /**
   * The base file's schema: dictionary-encoded BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY(12) and INT96 (12
   * bytes: 0x15555556 x 12 wraps to 8 in int arithmetic), optional, with nulls.
   */
  public static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message base {"
      + " required int64 id; optional binary s (STRING); optional fixed_len_byte_array(12) f;"
      + " optional int96 t; }");
  /** Rows of the file with the huge dictionary entry: one page of this many indices. */
  public static final int HUGE_ROWS = 1024;
  /** Bytes of that file's only dictionary entry: HUGE_ROWS of them overflow an int. */
  public static final int HUGE_ENTRY = 2_200_000;

  private CorruptFiles() {
  }

  /** A column chunk's first data page: where its header and sections are. */
  public record PageAt(long offset, PageHeaderInfo header) {
    /** File offset of the page body (after the header). */
    public long body() {
      return offset + header.headerLength();
    }

    /** V2: where the definition levels start. */
    public long definitionLevels() {
      return body() + header.repetitionLevelsByteLength();
    }

    /** V2: where the values start. */
    public long values() {
      return definitionLevels() + header.definitionLevelsByteLength();
    }
  }

  /**
   * The intact base file: id = row, s = "s" + row % 10, f and t 12 bytes from row % 10; s, f, t null
   * where row % 7 == 3. Data pages V2, uncompressed, every column dictionary-encoded.
   */
  public static Path base(Path dir) {
    return write(dir.resolve("base.parquet"), SCHEMA, ROWS, 1 << 20, (row, g) -> {
      g.add("id", (long) row);
      if (row % 7 != 3) {
        g.add("s", "s" + row % DISTINCT);
        g.add("f", Binary.fromConstantByteArray(twelve(row % DISTINCT)));
        g.add("t", Binary.fromConstantByteArray(twelve(row % DISTINCT)));
      }
    });
  }

  /**
   * The base file with its row group claiming {@code fewer} rows fewer than its chunks hold: a reader
   * that trusts the count returns rows short without a word.
   */
  public static Path fewerRowsClaimed(Path dir, int fewer) {
    return save(dir, "fewer-rows.parquet", withFirstRowGroupShortened(bytes(base(dir)), fewer));
  }

  /** {@code file} with its first row group's (and the file's) row count lowered by {@code fewer}. */
  public static byte[] withFirstRowGroupShortened(byte[] file, int fewer) {
    try {
      int length = ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      int footer = file.length - 8 - length;
      FileMetaData meta = Util.readFileMetaData(new ByteArrayInputStream(file, footer, length));
      meta.getRow_groups().get(0).setNum_rows(meta.getRow_groups().get(0).getNum_rows() - fewer);
      meta.setNum_rows(meta.getNum_rows() - fewer);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(file, 0, footer);
      int start = out.size();
      Util.writeFileMetaData(meta, out);
      int newLength = out.size() - start;
      out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(newLength).array());
      out.write("PAR1".getBytes(StandardCharsets.US_ASCII));
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The base file cut in the middle of its pages: no footer, no trailing magic. */
  public static Path truncated(Path dir) {
    byte[] b = bytes(base(dir));
    return save(dir, "truncated.parquet", Arrays.copyOf(b, b.length / 3));
  }

  /** The schema root claims a billion children (the schema list has five elements). */
  public static Path hugeNumChildren(Path dir) {
    byte[] b = bytes(base(dir));
    return save(dir, "huge_num_children.parquet",
        FooterRewrite.editFooter(b, f -> f.getSchema().get(0).setNum_children(1_000_000_000)));
  }

  /** The name of column {@code s} in the schema claims 0x7fffff00 bytes, far past the footer's end. */
  public static Path stringPastFooter(Path dir) {
    byte[] b = bytes(base(dir));
    int start = FooterRewrite.footerStart(b);
    byte[] footer = Arrays.copyOfRange(b, start, b.length - 8);
    // SchemaElement.name "s": a BINARY field header (low nibble 8), length 1, 's'.
    int at = -1;
    for (int i = 0; i + 2 < footer.length && at < 0; i++) {
      if ((footer[i] & 0x0f) == 8 && footer[i + 1] == 1 && footer[i + 2] == 's') { // the schema comes first
        at = i + 1;
      }
    }
    if (at < 0) {
      throw new IllegalStateException("no SchemaElement.name \"s\" in the footer");
    }
    byte[] length = new CompactWriter().varint(0x7fffff00L).bytes();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(footer, 0, at);
    out.write(length, 0, length.length);
    out.write(footer, at + 1, footer.length - at - 1);
    return save(dir, "string_past_footer.parquet", FooterRewrite.withFooterBytes(b, out.toByteArray()));
  }

  /** Column {@code id}'s data page header claims uncompressed_page_size 2147483647. */
  public static Path hugeUncompressedPageSize(Path dir) {
    byte[] b = bytes(base(dir));
    PageAt p = firstDataPage(b, "id");
    PageHeader h = thriftHeader(b, p.offset());
    h.setUncompressed_page_size(Integer.MAX_VALUE);
    byte[] header = encode(h);
    return save(dir, "huge_page_size.parquet",
        FooterRewrite.splice(b, p.offset(), p.header().headerLength(), header));
  }

  /**
   * Column {@code column}'s dictionary indices all rewritten to {@code index}: the values section
   * of its data page starts with bit width 32 and one RLE run of {@code index} for every defined value.
   */
  public static Path dictionaryIndex(Path dir, String column, long index) {
    byte[] b = bytes(base(dir));
    PageAt p = firstDataPage(b, column);
    int defined = p.header().numValues() - p.header().numNulls();
    byte[] run = new CompactWriter().raw(32).varint((long) defined << 1)
        .raw((int) index & 0xff, (int) (index >>> 8) & 0xff, (int) (index >>> 16) & 0xff, (int) (index >>> 24) & 0xff)
        .bytes();
    System.arraycopy(run, 0, b, (int) p.values(), run.length);
    return save(dir, "dict_index_" + column + "_" + Long.toHexString(index) + ".parquet", b);
  }

  /** The number of entries in {@code column}'s dictionary page of the base file. */
  public static int dictionarySize(Path base, String column) {
    byte[] b = bytes(base);
    ColumnMetaData m = chunk(b, column);
    return header(b, m.getDictionary_page_offset(), column).numValues();
  }

  /** Column {@code s}'s first definition level rewritten to 3 (its max is 1): one RLE run of 3s. */
  public static Path definitionLevelAboveMax(Path dir) {
    byte[] b = bytes(base(dir));
    PageAt p = firstDataPage(b, "s");
    // Bit width 1 stores an RLE value in one byte, which can hold any level up to 255.
    byte[] run = new CompactWriter().varint((long) p.header().numValues() << 1).raw(3).bytes();
    if (run.length > p.header().definitionLevelsByteLength()) {
      throw new IllegalStateException("definition levels of s too short for the run");
    }
    System.arraycopy(run, 0, b, (int) p.definitionLevels(), run.length);
    return save(dir, "def_level_above_max.parquet", b);
  }

  /**
   * HUGE_ROWS rows of one BYTE_ARRAY value whose dictionary page is replaced by one entry of
   * HUGE_ENTRY bytes: one page of HUGE_ROWS indices then stands for 2.25 GB of values.
   */
  public static Path hugeDictionaryEntry(Path dir) {
    MessageType schema = MessageTypeParser.parseMessageType("message huge { required binary v; }");
    byte[] b = bytes(write(dir.resolve("huge_entry_base.parquet"), schema, HUGE_ROWS, 1 << 20,
        (row, g) -> g.add("v", "x")));
    ColumnMetaData m = chunk(b, "v");
    long at = m.getDictionary_page_offset();
    PageHeaderInfo old = header(b, at, "v");
    byte[] body = new byte[4 + HUGE_ENTRY];
    body[0] = (byte) HUGE_ENTRY;
    body[1] = (byte) (HUGE_ENTRY >>> 8);
    body[2] = (byte) (HUGE_ENTRY >>> 16);
    body[3] = (byte) (HUGE_ENTRY >>> 24);
    Arrays.fill(body, 4, body.length, (byte) 'x');
    PageHeader h = new PageHeader(org.apache.parquet.format.PageType.DICTIONARY_PAGE, body.length, body.length);
    h.setDictionary_page_header(new DictionaryPageHeader(1, org.apache.parquet.format.Encoding.PLAIN));
    byte[] header = encode(h);
    byte[] page = Arrays.copyOf(header, header.length + body.length);
    System.arraycopy(body, 0, page, header.length, body.length);
    return save(dir, "huge_dictionary_entry.parquet",
        FooterRewrite.splice(b, at, old.headerLength() + old.compressedSize(), page));
  }

  /** The column chunk of {@code column} in the (only) row group. */
  public static ColumnMetaData chunk(byte[] file, String column) {
    FileMetaData f = FooterRewrite.footer(file);
    for (ColumnChunk c : f.getRow_groups().get(0).getColumns()) {
      if (String.join(".", c.getMeta_data().getPath_in_schema()).equals(column)) {
        return c.getMeta_data();
      }
    }
    throw new IllegalArgumentException("no column " + column);
  }

  /** The first data page of {@code column}, found with our page-header decoder. */
  public static PageAt firstDataPage(byte[] file, String column) {
    long at = chunk(file, column).getData_page_offset();
    PageHeaderInfo h = header(file, at, column);
    if (h.type() != PageType.DATA_PAGE_V2 && h.type() != PageType.DATA_PAGE) {
      throw new IllegalStateException("page at " + at + " of " + column + " is a " + h.type());
    }
    return new PageAt(at, h);
  }

  private static PageHeaderInfo header(byte[] file, long at, String column) {
    try {
      return new PageHeaderDecoder("crafted").read(
          new ByteArrayInputStream(file, (int) at, file.length - (int) at), at, column);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static PageHeader thriftHeader(byte[] file, long at) {
    try {
      return Util.readPageHeader(new ByteArrayInputStream(file, (int) at, file.length - (int) at));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The Thrift compact encoding of a page header. */
  static byte[] encode(PageHeader h) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      Util.writePageHeader(h, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static byte[] twelve(int v) {
    byte[] b = new byte[12];
    Arrays.fill(b, (byte) ('a' + v));
    b[11] = (byte) v;
    return b;
  }

  interface Filler {
    void fill(int row, Group g);
  }

  private static Path write(Path file, MessageType schema, int rows, int pageSize, Filler filler) {
    try {
      Files.createDirectories(file.getParent());
      try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalOutputFile(file))
          .withConf(new Configuration())
          .withType(schema)
          .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
          .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
          .withWriterVersion(WriterVersion.PARQUET_2_0)
          .withDictionaryEncoding(true)
          .withPageSize(pageSize)
          .build()) {
        for (int row = 0; row < rows; row++) {
          Group g = new SimpleGroup(schema);
          filler.fill(row, g);
          w.write(g);
        }
      }
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] bytes(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path save(Path dir, String name, byte[] b) {
    try {
      return Files.write(dir.resolve(name), b);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
