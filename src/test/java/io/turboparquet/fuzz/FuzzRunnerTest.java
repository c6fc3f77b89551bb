package io.turboparquet.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.OracleDigest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FuzzRunnerTest {
  @TempDir Path dir;

  @Test
  void anIntactFileIsAcceptedInEveryReadModeWithParquetJavasDigest() throws Exception {
    List<Path> files = SeedFiles.generate(dir.resolve("seeds"));
    try (FuzzRunner runner = new FuzzRunner(dir.resolve("work"), 10_000)) {
      for (Path f : files) {
        byte[] bytes = Files.readAllBytes(f);
        String expected = String.join("\n", OracleDigest.digest(f, null));
        for (long s = 0; s < 4; s++) {
          ReadMode mode = ReadMode.draw(s);
          CaseResult r = runner.run("intact.parquet", bytes, mode);
          assertEquals(Outcome.ACCEPTED, r.outcome(), f + " " + mode + ": " + r.detail());
          assertEquals(expected, r.detail(), f + " " + mode);
        }
      }
    }
  }

  @Test
  void aFileCutBeforeItsFooterIsACorruptionNamingTheFile() throws Exception {
    byte[] bytes = Files.readAllBytes(SeedFiles.generate(dir.resolve("seeds")).get(0));
    try (FuzzRunner runner = new FuzzRunner(dir.resolve("work"), 10_000)) {
      CaseResult r = runner.run("cut.parquet", Arrays.copyOf(bytes, bytes.length / 2), ReadMode.draw(1));
      assertEquals(Outcome.CORRUPTION, r.outcome(), r.detail());
      assertTrue(r.detail().contains("cut.parquet"), r.detail());
    }
  }

  /**
   * parquet-java's LZ4 decoder (aircompressor) reuses its output buffer and takes a match offset of
   * 0, so on such a page its answer depends on what it read before: it is no oracle there. Ours
   * zeroes the destination and is the same in every read mode.
   */
  @Test
  void parquetJavaAnswersThatDependOnWhatItReadBeforeAreNoOracle() throws Exception {
    Path mutated = dir.resolve("offset0.parquet");
    try (java.io.InputStream in = getClass().getResourceAsStream(
        "/fuzz/lz4_raw_compressed-BIT_FLIP-f91a1c3d47aadd05-WRONG_VALUES.parquet")) {
      Files.write(mutated, in.readAllBytes());
    }
    Path seed = CorpusFiles.dir().resolve("lz4_raw_compressed.parquet");
    Path other = CorpusFiles.dir().resolve("lz4_raw_compressed_larger.parquet");
    ParquetJavaDigest.digest(seed, null);
    List<String> afterSeed = ParquetJavaDigest.digest(mutated, null);
    ParquetJavaDigest.digest(other, null);
    List<String> afterOther = ParquetJavaDigest.digest(mutated, null);
    assertNotEquals(afterSeed, afterOther, "parquet-java's answer depends on what it read before");
    byte[] bytes = Files.readAllBytes(mutated);
    try (FuzzRunner runner = new FuzzRunner(dir.resolve("work"), 10_000)) {
      String ours = null;
      for (long s = 0; s < 4; s++) {
        ParquetJavaDigest.digest(other, null);
        CaseResult r = runner.run("offset0.parquet", bytes, ReadMode.draw(s), Files.readAllBytes(seed));
        assertEquals(Outcome.ACCEPTED, r.outcome(), r.detail());
        ours = ours == null ? r.detail() : ours;
        assertEquals(ours, r.detail(), "the same values in every read mode");
      }
      ParquetJavaDigest.digest(other, null);
      assertEquals(Outcome.WRONG_VALUES, runner.run("offset0.parquet", bytes, ReadMode.draw(0)).outcome(),
          "without the seed parquet-java's first answer stands");
    }
  }

  @Test
  void exceptionsClassifyByTypeAndMessage() {
    assertEquals(Outcome.CORRUPTION,
        FuzzRunner.classify(new ParquetCorruptionException("/x/f.parquet", "bad"), "f.parquet").outcome());
    assertEquals(Outcome.RAW_EXCEPTION,
        FuzzRunner.classify(new ParquetCorruptionException("/x/g.parquet", "bad"), "f.parquet").outcome());
    assertEquals(Outcome.UNSUPPORTED,
        FuzzRunner.classify(new UnsupportedOperationException("LZO"), "f.parquet").outcome());
    assertEquals(Outcome.RAW_EXCEPTION,
        FuzzRunner.classify(new UnsupportedOperationException(), "f.parquet").outcome());
    assertEquals(Outcome.RAW_EXCEPTION,
        FuzzRunner.classify(new ArrayIndexOutOfBoundsException(3), "f.parquet").outcome());
    assertEquals(Outcome.OOM, FuzzRunner.classify(new java.io.IOException(new OutOfMemoryError("Direct buffer memory")),
        "f.parquet").outcome());
  }
}
