package io.turboparquet.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.drill.demo.Soak;
import io.turboparquet.drill.demo.SoakDrillbit;
import io.turboparquet.drill.demo.SoakFiles;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Concurrency (issue 37): eight JDBC clients for 20 s against one drillbit in its own JVM with a
 * small direct-memory cap, a seeded mix through turbo-parquet ({@link Soak}): full aggregations,
 * range filters, LIMIT, a wide and a nested file, two corrupt files, one query in ten cancelled
 * mid-flight. Every answer equals the first answer of the same query, every corrupt file fails
 * with a DATA_READ error naming it, nothing else fails, Drill's root allocator goes back to its
 * baseline, and the drillbit answers afterwards. Two queries of each kind keep the warm-up (each
 * query once, alone, before the load) short. Timing and peak memory are printed, not asserted: the
 * memory target is relative to the built-in reader on the same mix, which {@code bin/drill soak}
 * runs beside it (docs/benchmarks.md, "Concurrency soak inside Drill").
 */
class SoakDrillTest {
  private static final int DIRECT_MIB = 768;

  @Test
  void eightClientsWithCancelsAndCorruptFilesLeaveNothingBehind() throws Exception {
    DrillHome home = DrillHome.assemble("drill-soak");
    home.installTools(); // the soak's drillbit main is a tool
    SoakFiles files = SoakFiles.write(home.work().resolve("data"), 100_000);
    Soak.Settings settings = new Soak.Settings(TurboParquetFormatConfig.NAME, 8, Duration.ofSeconds(20), 37, 10, 2, 0, false);
    try (SoakDrillbit drillbit = SoakDrillbit.start((options, main) -> home.javaCommand(options, main, List.of()),
        DIRECT_MIB, home.work().resolve("soak-drillbit.log"))) {
      Soak.Report report = Soak.run(settings, files, drillbit);
      System.out.println(report.summary());
      String context = report.summary() + "\n" + drillbit.logTail();
      assertEquals(List.of(), report.unexpected(), context);
      assertEquals(List.of(), report.uncleanCorrupt(), context);
      for (Soak.Kind kind : Soak.Kind.values()) {
        Soak.KindStats stats = report.kinds().get(kind);
        if (kind == Soak.Kind.CORRUPT) {
          assertTrue(stats.failedAsExpected > 0, "corrupt files queried: " + context);
        } else {
          assertTrue(stats.answered > 0, kind + " answered: " + context);
        }
      }
      assertTrue(report.cancelled() > 0, "queries cancelled mid-flight: " + context);
      assertEquals(report.baseline(), report.after(), "Drill's root allocator after the load: " + context);
      assertTrue(report.answersAfterwards(), context);
    }
  }
}
