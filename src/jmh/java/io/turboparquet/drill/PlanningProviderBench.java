package io.turboparquet.drill;

import java.util.ArrayList;
import java.util.List;
import org.apache.drill.exec.metastore.store.FileSystemMetadataProviderManager;
import org.apache.drill.exec.metastore.store.parquet.ParquetTableMetadataProviderImpl;
import org.apache.drill.exec.store.dfs.DrillFileSystem;
import org.apache.drill.exec.store.dfs.ReadEntryWithPath;
import org.apache.drill.exec.store.parquet.ParquetReaderConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The planning step footers feed, without the rest of Drill's planner: a table's metadata provider
 * built by Drill's {@code ParquetTableMetadataProviderImpl} (parquet-java footers) and by ours (footers
 * from a {@link FooterCache}, warm after the first build), interleaved, one line per table with
 * every build's milliseconds. Both include Drill's conversion of the footers' metadata into its
 * planning metadata ({@code initializeMetadata}), which is the same work for both.
 *
 * <p>usage (bench/planning.sh's tables): java -cp target/classes:CLASSPATH:DRILL_CLASSPATH
 * io.turboparquet.drill.PlanningProviderBench N TABLE_DIR...
 */
public final class PlanningProviderBench {
  private PlanningProviderBench() {}

  public static void main(String[] args) throws Exception {
    DrillFileSystem fs = new DrillFileSystem(new Configuration());
    FooterCache cache = new FooterCache(1L << 30);
    int runs = Integer.parseInt(args[0]);
    for (int t = 1; t < args.length; t++) {
      Path dir = new Path(args[t]);
      List<Long> drills = new ArrayList<>();
      List<Long> ours = new ArrayList<>();
      for (int i = 0; i < runs; i++) {
        long start = System.nanoTime();
        new ParquetTableMetadataProviderImpl.Builder(new FileSystemMetadataProviderManager())
            .withEntries(List.of(new ReadEntryWithPath(dir))).withSelectionRoot(dir).withFileSystem(fs)
            .withReaderConfig(ParquetReaderConfig.getDefaultInstance()).build();
        drills.add((System.nanoTime() - start) / 1_000_000);
        start = System.nanoTime();
        new TurboParquetMetadataProvider.Builder(new FileSystemMetadataProviderManager(), cache, null,
            new DrillFileMetadata.Typing(false, false))
            .withEntries(List.of(new ReadEntryWithPath(dir))).withSelectionRoot(dir).withFileSystem(fs)
            .withReaderConfig(ParquetReaderConfig.getDefaultInstance()).build();
        ours.add((System.nanoTime() - start) / 1_000_000);
      }
      System.out.println(dir.getName() + ": Drill's provider ms " + drills + ", turbo-parquet's ms " + ours);
    }
  }
}
