package io.turboparquet.bench;

import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.thrift.FooterDecoder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.openjdk.jol.info.GraphLayout;

/**
 * Heap held by a decoded footer, measured with JOL ({@code GraphLayout.parseInstance(...)
 * .totalSize()}: every object reachable from the result, the footer bytes excluded unless the
 * result keeps them): our {@code FileMetadata} with statistics ({@link FooterBenchmarkBase#FULL})
 * and without ({@code FooterOptions.DEFAULT}), and parquet-java's {@code ParquetMetadata}
 * (NO_FILTER). One JSON line per file on standard output:
 *
 * <pre>java -Djdk.attach.allowAttachSelf ... FooterRetainedHeap FILE...</pre>
 *
 * A file named {@code {writer}_{N}c.parquet} is reported with that writer and N; a decode that
 * fails is reported as {@code "..._error"} instead of its sizes.
 */
public final class FooterRetainedHeap {
  private FooterRetainedHeap() {}

  public static void main(String[] args) throws IOException {
    // Our model is records, whose field offsets sun.misc.Unsafe does not give; JOL then finds them itself.
    System.setProperty("jol.magicFieldOffset", System.getProperty("jol.magicFieldOffset", "true"));
    for (String arg : args) {
      Path file = Paths.get(arg);
      byte[] footer = FooterBenchmarkBase.readFooter(file);
      long length = Files.size(file);
      String name = file.getFileName().toString();
      StringBuilder line = new StringBuilder("{\"kind\":\"heap\"");
      int cut = name.lastIndexOf('_');
      if (name.endsWith("c.parquet") && cut > 0) {
        line.append(",\"writer\":\"").append(json(name.substring(0, cut))).append("\",\"columns\":")
            .append(name, cut + 1, name.length() - "c.parquet".length());
      }
      line.append(",\"file\":\"").append(json(file.toString())).append("\",\"footer_bytes\":").append(footer.length);
      try {
        FileMetadata metadata = FooterDecoder.decode(arg, length, footer, 0, footer.length, FooterOptions.DEFAULT);
        line.append(",\"row_groups\":").append(metadata.rowGroups().size()).append(",\"leaves\":")
            .append(metadata.schema().columns().size());
      } catch (IOException | RuntimeException e) {
        // measure() below reports it
      }
      measure(line, "turbo_full", () -> FooterDecoder.decode(arg, length, footer, 0, footer.length,
          FooterBenchmarkBase.FULL));
      measure(line, "turbo_nostats", () -> FooterDecoder.decode(arg, length, footer, 0, footer.length,
          FooterOptions.DEFAULT));
      measure(line, "parquet_java", () -> FooterBenchmarkBase.parquetJava(footer));
      line.append(",\"utc\":\"").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append("\"}");
      System.out.println(line);
    }
  }

  /** Appends {@code NAME_bytes} and {@code NAME_objects} of what {@code decode} returns, or {@code NAME_error}. */
  private static void measure(StringBuilder line, String name, Callable<Object> decode) {
    try {
      GraphLayout layout = GraphLayout.parseInstance(decode.call());
      line.append(String.format(Locale.ROOT, ",\"%s_bytes\":%d,\"%s_objects\":%d", name, layout.totalSize(), name,
          layout.totalCount()));
    } catch (Exception | LinkageError e) {
      line.append(",\"").append(name).append("_error\":\"").append(json(e.toString())).append('"');
    }
  }

  private static String json(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
