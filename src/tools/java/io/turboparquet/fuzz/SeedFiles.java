package io.turboparquet.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.NanoTime;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * The fuzzer's seed files: the parquet-testing corpus (top level and {@code bad_data/}) and a few
 * small files written here with parquet-java's writer, deterministically: dictionary BYTE_ARRAY,
 * FIXED_LEN_BYTE_ARRAY and INT96 columns, optional and repeated (LIST) columns, v1 and v2 pages,
 * SNAPPY, GZIP and no compression, several pages per chunk, page checksums, and string statistics
 * long enough that a column chunk's metadata runs to kilobytes (what a projected footer decode
 * skips by replaying shapes).
 */
public final class SeedFiles {
  /** Larger seeds are left out: their reproducers must stay small enough to keep in the repository. */
  public static final int MAX_SEED_BYTES = 96 * 1024;
  /**
   * Largest decompressed page a seed may have: every case of a seed whose intact pages decompress
   * to more than the worker's memory caps (a 4 KiB file with a 1 GiB page) would be an OOM and
   * say nothing; such a seed is left out.
   */
  public static final int MAX_SEED_PAGE_BYTES = 64 << 20;

  private static final MessageType FLAT = MessageTypeParser.parseMessageType("""
      message flat {
        required binary name (STRING);
        optional fixed_len_byte_array(4) code;
        optional int96 ts;
        required int32 id;
        optional int64 amount;
        optional double ratio;
        optional boolean flag;
      }""");

  private static final MessageType NESTED = MessageTypeParser.parseMessageType("""
      message nested {
        required int32 id;
        optional group tags (LIST) {
          repeated group list {
            optional binary element (STRING);
          }
        }
        repeated int32 scores;
        optional group point {
          optional int64 x;
          required fixed_len_byte_array(2) tag;
        }
      }""");

  /** {@code namePad}: characters appended to every {@code name} value, so its statistics are that long. */
  private record Spec(String name, MessageType schema, WriterVersion version, CompressionCodecName codec,
      boolean dictionary, boolean checksums, int namePad) {
    Spec(String name, MessageType schema, WriterVersion version, CompressionCodecName codec, boolean dictionary,
        boolean checksums) {
      this(name, schema, version, codec, dictionary, checksums, 0);
    }
  }

  private static final List<Spec> SPECS = List.of(
      new Spec("flat-dict-v1-snappy", FLAT, WriterVersion.PARQUET_1_0, CompressionCodecName.SNAPPY, true, false),
      new Spec("flat-dict-v2-gzip", FLAT, WriterVersion.PARQUET_2_0, CompressionCodecName.GZIP, true, false),
      new Spec("flat-plain-v1-uncompressed", FLAT, WriterVersion.PARQUET_1_0, CompressionCodecName.UNCOMPRESSED,
          false, false),
      new Spec("flat-dict-v1-uncompressed-crc", FLAT, WriterVersion.PARQUET_1_0, CompressionCodecName.UNCOMPRESSED,
          true, true),
      new Spec("nested-dict-v2-snappy", NESTED, WriterVersion.PARQUET_2_0, CompressionCodecName.SNAPPY, true, false),
      new Spec("nested-dict-v1-uncompressed", NESTED, WriterVersion.PARQUET_1_0, CompressionCodecName.UNCOMPRESSED,
          true, true),
      new Spec("nested-v2-uncompressed", NESTED, WriterVersion.PARQUET_2_0, CompressionCodecName.UNCOMPRESSED,
          false, false),
      new Spec("flat-long-stats-v1-snappy", FLAT, WriterVersion.PARQUET_1_0, CompressionCodecName.SNAPPY, true,
          false, 700));

  private static final int ROWS = 1200;

  private SeedFiles() {}

  /** Writes the generated seed files into {@code dir} (replacing any); returns them in a fixed order. */
  public static List<Path> generate(Path dir) {
    List<Path> out = new ArrayList<>();
    try {
      Files.createDirectories(dir);
      for (Spec s : SPECS) {
        Path file = dir.resolve(s.name() + ".parquet");
        write(file, s);
        out.add(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing seed files to " + dir, e);
    }
    return out;
  }

  private static void write(Path file, Spec s) throws IOException {
    ExampleParquetWriter.Builder b = ExampleParquetWriter.builder(new LocalOutputFile(file))
        .withConf(new Configuration()) // GroupWriteSupport keeps the schema in the conf: one per writer
        .withType(s.schema())
        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
        .withCompressionCodec(s.codec())
        .withWriterVersion(s.version())
        .withDictionaryEncoding(s.dictionary())
        .withPageSize(2048)
        .withPageRowCountLimit(250)
        .withDictionaryPageSize(4096)
        .withRowGroupSize(24 * 1024)
        .withPageWriteChecksumEnabled(s.checksums())
        .withValidation(false);
    SplittableRandom r = new SplittableRandom(s.name().hashCode());
    try (ParquetWriter<Group> w = b.build()) {
      for (int row = 0; row < ROWS; row++) {
        w.write(s.schema() == FLAT ? flatRow(row, r, s.namePad()) : nestedRow(row, r));
      }
    }
  }

  private static Group flatRow(int row, SplittableRandom r, int namePad) {
    Group g = new SimpleGroup(FLAT);
    g.add("name", "name-" + r.nextInt(12) + "~".repeat(namePad));
    if (r.nextInt(10) != 0) {
      g.add("code", Binary.fromConstantByteArray(("c" + (100 + r.nextInt(20))).getBytes(StandardCharsets.US_ASCII)));
    }
    if (r.nextInt(8) != 0) {
      g.add("ts", new NanoTime(2_459_000 + r.nextInt(5), r.nextInt(4) * 3_600_000_000_000L));
    }
    g.add("id", row);
    if (r.nextInt(5) != 0) {
      g.add("amount", r.nextInt(30) * 1000L);
    }
    if (r.nextInt(4) != 0) {
      g.add("ratio", r.nextInt(16) / 4.0);
    }
    if (r.nextInt(3) != 0) {
      g.add("flag", r.nextBoolean());
    }
    return g;
  }

  private static Group nestedRow(int row, SplittableRandom r) {
    Group g = new SimpleGroup(NESTED);
    g.add("id", row);
    int shape = r.nextInt(6);
    if (shape != 0) { // null list
      Group tags = g.addGroup("tags");
      for (int i = 0; i < shape - 1; i++) { // shape 1: empty list
        Group e = tags.addGroup("list");
        if (r.nextInt(5) != 0) {
          e.add("element", "tag-" + r.nextInt(9));
        }
      }
    }
    for (int i = r.nextInt(4); i > 0; i--) {
      g.add("scores", r.nextInt(50));
    }
    if (r.nextInt(4) != 0) {
      Group p = g.addGroup("point");
      if (r.nextBoolean()) {
        p.add("x", (long) r.nextInt(1000));
      }
      p.add("tag", Binary.fromConstantByteArray(new byte[] {(byte) r.nextInt(4), 1}));
    }
    return g;
  }

  /**
   * The seed files under {@code dir}: its {@code *.parquet} files and those of {@code bad_data/} and
   * {@code encrypted/} (not recursive otherwise), named {@code prefix/relative path}, sorted; files larger than
   * {@link #MAX_SEED_BYTES}, too short to hold a footer, or with a page that decompresses to more
   * than {@link #MAX_SEED_PAGE_BYTES} are left out.
   */
  /**
   * A Parquet file, or one of parquet-testing's encrypted files that {@link FuzzKeys} opens (not the
   * one whose AAD prefix must be supplied, not the one whose keys come through a KMS).
   */
  private static boolean isSeed(Path p) {
    String name = p.getFileName().toString();
    return name.endsWith(".parquet") || name.endsWith(".parquet.encrypted") && !name.contains("disable_aad_storage")
        && !name.startsWith("external");
  }

  public static List<SeedFile> load(Path dir, String prefix) {
    List<SeedFile> out = new ArrayList<>();
    for (Path d : List.of(dir, dir.resolve("bad_data"), dir.resolve("encrypted"))) {
      if (!Files.isDirectory(d)) {
        continue;
      }
      try (Stream<Path> files = Files.list(d)) {
        for (Path f : files.filter(p -> isSeed(p) && Files.isRegularFile(p)).sorted().toList()) {
          long size = Files.size(f);
          if (size >= 12 && size <= MAX_SEED_BYTES) {
            SeedFile seed = SeedFile.of(prefix + "/" + dir.relativize(f).toString().replace('\\', '/'),
                Files.readAllBytes(f));
            if (seed.layout().pages().stream().allMatch(p -> p.uncompressedSize() <= MAX_SEED_PAGE_BYTES)) {
              out.add(seed);
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("reading seed files from " + d, e);
      }
    }
    return out;
  }
}
