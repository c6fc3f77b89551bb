package io.turboparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.FooterReader;
import io.turboparquet.testing.NullTypeFiles;
import io.turboparquet.testing.OracleDigest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Columns of the NULL logical type and of a LogicalType member no reader knows: both are read as
 * their physical type (as parquet-java does), and the CLI's digest matches parquet-java's.
 */
class NullTypeColumnsTest {
  private static final int ROWS = 5000;

  @TempDir
  Path dir;

  @Test
  void nullTypeColumnsDigestAsAllNull() throws Exception {
    Path file = NullTypeFiles.allNull(dir, ROWS);
    FileMetadata meta = footer(file);
    assertEquals("UNKNOWN", meta.schema().column("nothing").logicalType());
    assertTrue(meta.rowGroups().size() > 1, "several row groups: " + meta.rowGroups().size());
    List<String> lines = digest(file);
    assertEquals(OracleDigest.digest(file, null), lines);
    for (String line : lines) {
      if (line.startsWith("nothing")) {
        String[] f = line.split("\t");
        assertEquals(List.of("0", String.valueOf(ROWS)), List.of(f[2], f[3]), line);
      }
    }
  }

  @Test
  void definedValuesOfANullTypeColumnReadAsThePhysicalType() throws Exception {
    // The annotation says "all null", the pages hold values: read them, as parquet-java and Drill's reader do.
    Path file = NullTypeFiles.withValues(dir, ROWS);
    assertEquals("UNKNOWN", footer(file).schema().column("nothing_bin").logicalType());
    List<String> lines = digest(file);
    assertEquals(OracleDigest.digest(file, null), lines);
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("nothing\tINT32\t" + (ROWS - (ROWS + 2) / 3) + "\t")),
        lines.toString());
  }

  @Test
  void unknownLogicalTypeMemberReadsAsThePhysicalType() throws Exception {
    Path file = Path.of(NullTypeColumnsTest.class.getResource("/parquet-testing/unknown-logical-type.parquet").toURI());
    ColumnDescriptor unknown = footer(file).schema().column("column with unknown type");
    assertNull(unknown.logicalType());
    assertEquals("STRING", footer(file).schema().column("column with known type").logicalType());
    // parquet-java 1.15 fails on the unknown member (NullPointerException converting the footer): it
    // reads a copy without it, whose pages are the same bytes.
    Path readable = NullTypeFiles.withoutUnknownLogicalTypes(file, dir.resolve("readable.parquet"));
    List<String> lines = digest(file);
    assertEquals(OracleDigest.digest(readable, null), lines);
    assertEquals(2, lines.size());
  }

  private static List<String> digest(Path file) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      assertEquals(0, Main.run(new String[] {"digest", file.toString()}, out));
    }
    return Arrays.asList(bytes.toString(StandardCharsets.UTF_8).split("\n"));
  }

  private static FileMetadata footer(Path file) throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(file.toUri());
    try (FSDataInputStream in = fs.open(p)) {
      return FooterReader.read(in, p.toString(), fs.getFileStatus(p).getLen());
    }
  }
}
