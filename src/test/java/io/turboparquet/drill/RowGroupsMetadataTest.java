package io.turboparquet.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.collect.Multimap;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.GeneratedFile;
import io.turboparquet.testing.SharedGeneratedFiles;
import io.turboparquet.testing.TestFileGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.drill.exec.store.parquet.ParquetReaderConfig;
import org.apache.drill.exec.store.parquet.ParquetTableMetadataUtils;
import org.apache.drill.exec.store.parquet.metadata.Metadata;
import org.apache.drill.exec.store.parquet.metadata.Metadata_V4;
import org.apache.drill.metastore.components.tables.TableMetadataUnit;
import org.apache.drill.metastore.metadata.RowGroupMetadata;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drill's planning metadata per row group, made by {@link RowGroupsMetadata}, must be what Drill's
 * own {@code ParquetTableMetadataUtils.getRowGroupsMetadata} makes of the same table metadata in
 * every field Drill keeps (schema, column statistics, row count, start, length, index, path, host
 * affinity; compared in the Metastore's serialized form, which spells out byte-array values): on
 * every corpus and generated file Drill reads, and on tables of many files whose column lists,
 * types and repetitions differ, with an empty file among them.
 */
class RowGroupsMetadataTest {
  private static final ParquetReaderConfig CONFIG = ParquetReaderConfig.getDefaultInstance();

  @TempDir
  Path dir;

  @Test
  void sameAsDrillsOnEveryFileAlone() throws IOException {
    List<Path> files = new ArrayList<>();
    for (CorpusFiles.Readability r : CorpusFiles.checkAll()) {
      if (r.readable()) {
        files.add(r.file());
      }
    }
    SharedGeneratedFiles.all().stream().map(GeneratedFile::path).forEach(files::add);
    TestFileGenerator.nestedFiles(dir.resolve("nested")).stream().map(GeneratedFile::path).forEach(files::add);
    int tables = 0;
    int rowGroups = 0;
    List<String> refused = new ArrayList<>();
    for (Path file : files) {
      Metadata_V4.ParquetTableMetadata_v4 table;
      try {
        table = drillsTableMetadata(file);
      } catch (RuntimeException | IOException e) {
        refused.add(file.getFileName() + ": " + e); // Drill's own metadata reader refuses it; nothing to compare
        continue;
      }
      rowGroups += compare(table);
      tables++;
    }
    assertTrue(tables > 100, "files compared: " + tables + ", refused by Drill: " + refused);
    assertTrue(rowGroups > tables, "row groups compared: " + rowGroups);
  }

  @Test
  void sameAsDrillsOnTablesOfDifferingFiles() throws IOException {
    Path generated = dir.resolve("generated");
    TestFileGenerator.typesMatrix(generated);
    Path mixed = dir.resolve("mixed");
    Files.createDirectories(mixed);
    // The same names with other types and repetitions, a file with a column more, and one with no rows.
    write(mixed.resolve("a.parquet"), "message m { required int64 id; optional binary tag (UTF8); }", 5_000);
    write(mixed.resolve("b.parquet"), "message m { optional int32 id; optional binary tag (UTF8); "
        + "optional double extra; }", 5_000);
    write(mixed.resolve("c.parquet"), "message m { required int64 id; required binary tag (UTF8); }", 0);
    write(mixed.resolve("d.parquet"), "message m { required double id; optional int32 tag (DATE); }", 3_000);

    int generatedGroups = compare(drillsTableMetadata(generated));
    assertTrue(generatedGroups > 20, "row groups compared: " + generatedGroups);
    Metadata_V4.ParquetTableMetadata_v4 table = drillsTableMetadata(mixed);
    assertEquals(4, table.getFiles().size());
    Multimap<org.apache.hadoop.fs.Path, RowGroupMetadata> ours = RowGroupsMetadata.of(table);
    assertTrue(ours.values().stream().anyMatch(g -> g.getRowGroupIndex() == -1), "the empty file's fake row group");
    assertTrue(compare(table) > 4);
  }

  /** Compares every row group of the table, file by file in order; returns how many. */
  private static int compare(Metadata_V4.ParquetTableMetadata_v4 table) {
    Multimap<org.apache.hadoop.fs.Path, RowGroupMetadata> drills = ParquetTableMetadataUtils.getRowGroupsMetadata(table);
    Multimap<org.apache.hadoop.fs.Path, RowGroupMetadata> ours = RowGroupsMetadata.of(table);
    assertEquals(new ArrayList<>(drills.keySet()), new ArrayList<>(ours.keySet()));
    int compared = 0;
    for (org.apache.hadoop.fs.Path file : drills.keySet()) {
      List<TableMetadataUnit> expected = units(drills.get(file));
      List<TableMetadataUnit> actual = units(ours.get(file));
      assertEquals(expected, actual, file.toString());
      compared += expected.size();
    }
    return compared;
  }

  private static List<TableMetadataUnit> units(Collection<RowGroupMetadata> rowGroups) {
    List<TableMetadataUnit> units = new ArrayList<>();
    for (RowGroupMetadata g : rowGroups) {
      units.add(g.toMetadataUnit());
    }
    return units;
  }

  /** Drill's table metadata of a file or directory, from parquet-java's footers, as Drill plans without a cache. */
  private static Metadata_V4.ParquetTableMetadata_v4 drillsTableMetadata(Path path) throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    return Metadata.getParquetTableMetadata(fs, new org.apache.hadoop.fs.Path(path.toUri()), CONFIG);
  }

  private static void write(Path file, String schemaText, int rows) throws IOException {
    MessageType schema = MessageTypeParser.parseMessageType(schemaText);
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
        .withConf(new Configuration()).withType(schema).withRowGroupSize(16 * 1024).withPageSize(4 * 1024)
        .build()) {
      for (int i = 0; i < rows; i++) {
        Group g = groups.newGroup();
        for (org.apache.parquet.schema.Type f : schema.getFields()) {
          if (f.isRepetition(org.apache.parquet.schema.Type.Repetition.OPTIONAL) && i % 5 == 0) {
            continue;
          }
          switch (f.asPrimitiveType().getPrimitiveTypeName()) {
            case INT64 -> g.add(f.getName(), (long) i * 3);
            case INT32 -> g.add(f.getName(), 18_000 + i);
            case DOUBLE -> g.add(f.getName(), i / 7.0);
            default -> g.add(f.getName(), "t" + (i % 97));
          }
        }
        w.write(g);
      }
    }
  }
}
