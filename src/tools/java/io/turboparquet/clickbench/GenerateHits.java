package io.turboparquet.clickbench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes a file with ClickBench's hits.parquet schema ({@link HitsSchema}) and seeded,
 * deterministic data ({@link Hit}) with parquet-java's {@link ParquetWriter} (its defaults: v1
 * pages, dictionaries, statistics), row groups cut by size. Same arguments, same file.
 *
 * <p>usage: GenerateHits FILE [--rows N (10,000,000)] [--row-group-mb N (128)] [--codec SNAPPY] [--seed S (36)]
 */
public final class GenerateHits {
  private GenerateHits() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println("usage: GenerateHits FILE [--rows N] [--row-group-mb N] [--codec CODEC] [--seed S]");
      System.exit(2);
    }
    long rows = 10_000_000;
    long rowGroupBytes = 128L << 20;
    CompressionCodecName codec = CompressionCodecName.SNAPPY;
    long seed = 36;
    for (int i = 1; i < args.length; i += 2) {
      switch (args[i]) {
        case "--rows" -> rows = Long.parseLong(args[i + 1]);
        case "--row-group-mb" -> rowGroupBytes = Long.parseLong(args[i + 1]) << 20;
        case "--codec" -> codec = CompressionCodecName.valueOf(args[i + 1].toUpperCase(Locale.ROOT));
        case "--seed" -> seed = Long.parseLong(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    Path file = Paths.get(args[0]);
    long start = System.nanoTime();
    write(file, rows, rowGroupBytes, codec, seed);
    System.err.printf(Locale.ROOT, "wrote %,d rows (%,d bytes) to %s in %.1f s%n", rows, Files.size(file), file,
        (System.nanoTime() - start) / 1e9);
  }

  /** Writes {@code rows} hits to {@code file}, through a temporary file so a cut-short run leaves no file. */
  public static void write(Path file, long rows, long rowGroupBytes, CompressionCodecName codec, long seed)
      throws IOException {
    Path partial = file.resolveSibling(file.getFileName() + ".partial");
    Files.deleteIfExists(partial);
    Hit hit = new Hit(rows, seed);
    try (ParquetWriter<Hit> writer = new Builder(new LocalOutputFile(partial)).withRowGroupSize(rowGroupBytes)
        .withCompressionCodec(codec).withConf(new Configuration()).build()) {
      for (long r = 0; r < rows; r++) {
        hit.next();
        writer.write(hit);
      }
    }
    Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING);
  }

  private static final class Builder extends ParquetWriter.Builder<Hit, Builder> {
    Builder(OutputFile file) {
      super(file);
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<Hit> getWriteSupport(Configuration conf) {
      return new HitWriteSupport();
    }
  }

  /** Each column's value of the current hit, in schema order. */
  private static final class HitWriteSupport extends WriteSupport<Hit> {
    private final List<HitsSchema.Column> columns = HitsSchema.COLUMNS;
    private RecordConsumer consumer;

    @Override
    public WriteContext init(Configuration configuration) {
      MessageType schema = HitsSchema.messageType();
      return new WriteContext(schema, new HashMap<>());
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
      consumer = recordConsumer;
    }

    @Override
    public void write(Hit hit) {
      consumer.startMessage();
      for (int i = 0; i < columns.size(); i++) {
        HitsSchema.Column c = columns.get(i);
        consumer.startField(c.name(), i);
        switch (c.kind()) {
          case INT16, INT32, DAYS_UINT16 -> consumer.addInteger((int) c.number().applyAsLong(hit));
          case INT64, EPOCH_SECONDS -> consumer.addLong(c.number().applyAsLong(hit));
          case STRING -> consumer.addBinary(Binary.fromConstantByteArray(c.text().apply(hit)));
        }
        consumer.endField(c.name(), i);
      }
      consumer.endMessage();
    }
  }
}
