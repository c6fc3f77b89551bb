package io.turboparquet.scan;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Files for the row-group pruning tests, written by parquet-java: several row groups whose values
 * differ by block of rows (so a value is often in one row group only), dictionary-encoded columns of
 * every physical type the pruning reads, one column that falls back from its dictionary to PLAIN in the
 * middle of its chunks (many distinct strings against a small dictionary page limit, after the first
 * pages were written dictionary-encoded), bloom filters on columns without dictionaries (parquet-java
 * writes no bloom filter for a chunk that is dictionary-encoded throughout) and on the falling-back
 * column, nulls, NaN and -0.0.
 */
public final class PruningFiles {
  static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message t {"
      + " required int32 id;" // the row number
      + " optional int32 cat;" // dictionary; 20 values per block, nulls
      + " required int64 code;" // dictionary + bloom filter
      + " optional binary name (STRING);" // dictionary + bloom filter, nulls
      + " optional double d;" // dictionary; NaN, -0.0 in block 2, 0.0 in block 4
      + " optional float f;" // dictionary + bloom filter
      + " optional binary tail (STRING);" // dictionary until block 3, then unique values: falls back to PLAIN
      + " optional int64 bloomonly;" // no dictionary, bloom filter
      + " optional int32 ibloom;" // no dictionary, bloom filter
      + " optional double dbloom;" // no dictionary, bloom filter; NaN, -0.0 in block 2, 0.0 in block 4
      + " optional binary sbloom (STRING);" // no dictionary, bloom filter
      + " optional int32 plain;" // neither
      + " optional fixed_len_byte_array(6) dec (DECIMAL(12,2));" // bloom filter (v1), dictionary (v2); negatives
      + "}");
  /** Rows per block of values. */
  static final int BLOCK = 2500;
  public static final int ROWS = 6 * BLOCK;

  private PruningFiles() {}

  /** V1 pages (PLAIN_DICTIONARY, SNAPPY) or V2 pages (RLE_DICTIONARY, ZSTD). */
  public static void write(Path file, boolean v2) throws IOException {
    SplittableRandom r = new SplittableRandom(v2 ? 2 : 1);
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    ExampleParquetWriter.Builder builder = ExampleParquetWriter.builder(new LocalOutputFile(file))
        .withType(SCHEMA)
        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
        .withCompressionCodec(v2 ? CompressionCodecName.ZSTD : CompressionCodecName.SNAPPY)
        .withWriterVersion(v2 ? WriterVersion.PARQUET_2_0 : WriterVersion.PARQUET_1_0)
        .withDictionaryEncoding(true)
        .withDictionaryEncoding("bloomonly", false)
        .withDictionaryEncoding("plain", false)
        .withDictionaryEncoding("ibloom", false)
        .withDictionaryEncoding("dbloom", false)
        .withDictionaryEncoding("sbloom", false)
        .withDictionaryPageSize(2048)
        .withPageSize(2048)
        .withPageRowCountLimit(200)
        .withRowGroupSize(v2 ? 28 * 1024 : 48 * 1024);
    for (String c : new String[] {"code", "name", "f", "bloomonly", "ibloom", "dbloom", "sbloom", "dec"}) {
      builder.withBloomFilterEnabled(c, true).withBloomFilterNDV(c, 500);
    }
    builder.withBloomFilterEnabled("tail", true).withBloomFilterNDV("tail", 5000);
    try (ParquetWriter<Group> w = builder.build()) {
      for (int i = 0; i < ROWS; i++) {
        int block = i / BLOCK;
        Group g = groups.newGroup();
        g.add("id", i);
        if (r.nextInt(10) != 0) {
          g.add("cat", block * 100 + r.nextInt(20));
        }
        g.add("code", block * 1_000_000L + r.nextInt(30));
        if (r.nextInt(8) != 0) {
          g.add("name", "n" + block + "-" + r.nextInt(25));
        }
        if (r.nextInt(20) != 0) {
          double d = block * 10 + r.nextInt(12) * 0.25;
          if (r.nextInt(200) == 0) {
            d = Double.NaN;
          } else if (block == 2 && r.nextInt(50) == 0) {
            d = -0.0;
          } else if (block == 4 && r.nextInt(50) == 0) {
            d = 0.0;
          }
          g.add("d", d);
        }
        if (r.nextInt(9) != 0) {
          g.add("f", (float) (block * 10 + r.nextInt(8) * 0.5));
        }
        if (r.nextInt(7) != 0) {
          g.add("tail", block < 3 ? "t" + (i % 40) : "t-unique-" + i);
        }
        if (r.nextInt(6) != 0) {
          g.add("bloomonly", block * 1000L + r.nextInt(50));
        }
        if (r.nextInt(5) != 0) {
          g.add("ibloom", block * 1000 + r.nextInt(40));
        }
        if (r.nextInt(10) != 0) {
          double d = block * 10 + r.nextInt(12) * 0.25;
          if (r.nextInt(200) == 0) {
            d = Double.NaN;
          } else if (block == 2 && r.nextInt(50) == 0) {
            d = -0.0;
          } else if (block == 4 && r.nextInt(50) == 0) {
            d = 0.0;
          }
          g.add("dbloom", d);
        }
        if (r.nextInt(6) != 0) {
          g.add("sbloom", "s" + block + "-" + r.nextInt(30));
        }
        if (r.nextInt(5) != 0) {
          g.add("plain", r.nextInt(1000));
        }
        if (r.nextInt(11) != 0) {
          long unscaled = (block % 2 == 0 ? 1 : -1) * (block * 10_000L + r.nextInt(15) * 25L);
          g.add("dec", Binary.fromConstantByteArray(PageIndexFiles.fixed(BigInteger.valueOf(unscaled), 6)));
        }
        w.write(g);
      }
    }
  }
}
