package io.turboparquet.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.scan.ScanContext;
import io.turboparquet.scan.ScanMetrics;
import io.turboparquet.scan.ScanOptions;
import io.turboparquet.scan.ScanPools;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.OracleDigest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
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
        List<String> all = OracleDigest.digest(f, null);
        for (long s = 0; s < 4; s++) {
          ReadMode mode = ReadMode.draw(s);
          CaseResult r = runner.run("intact.parquet", bytes, mode);
          assertEquals(Outcome.ACCEPTED, r.outcome(), f + " " + mode + ": " + r.detail());
          assertEquals(String.join("\n", readBy(all, mode)), r.detail(), f + " " + mode);
        }
        for (int stride : new int[] {2, 3}) { // the footer decoded projected, the other chunks skipped
          ReadMode mode = withStride(ReadMode.draw(7), stride);
          CaseResult r = runner.run("projected.parquet", bytes, mode);
          assertEquals(Outcome.ACCEPTED, r.outcome(), f + " " + mode + ": " + r.detail());
          assertEquals(String.join("\n", readBy(all, mode)), r.detail(), f + " " + mode);
          assertTrue(readBy(all, mode).size() < all.size(), f + ": the projection leaves columns out");
        }
      }
    }
  }

  /**
   * parquet-testing's encrypted files are seeds: both readers get {@link FuzzKeys}, so an intact one
   * is accepted with parquet-java's values, and byte flips across it are refused or read right,
   * never a failure outcome.
   */
  @Test
  void encryptedSeedsAreDecryptedAndTheirMutationsHandled() throws Exception {
    assertTrue(SeedFiles.load(CorpusFiles.dir(), "parquet-testing").stream()
        .anyMatch(s -> s.name().equals("parquet-testing/encrypted/encrypt_columns_and_footer.parquet.encrypted")));
    try (FuzzRunner runner = new FuzzRunner(dir.resolve("work"), 10_000)) {
      for (String name : List.of("encrypt_columns_and_footer.parquet.encrypted",
          "encrypt_columns_plaintext_footer.parquet.encrypted", "encrypt_columns_and_footer_ctr.parquet.encrypted")) {
        Path seed = CorpusFiles.dir().resolve("encrypted").resolve(name);
        byte[] bytes = Files.readAllBytes(seed);
        List<String> all = ParquetJavaDigest.digest(seed, null, FuzzKeys.properties());
        ReadMode whole = withStride(ReadMode.draw(1), 0);
        CaseResult intact = runner.run("intact.parquet", bytes, whole);
        assertEquals(Outcome.ACCEPTED, intact.outcome(), name + ": " + intact.detail());
        assertEquals(String.join("\n", all), intact.detail(), name);
        for (int at = 0; at < bytes.length; at += 89) {
          byte[] mutated = bytes.clone();
          mutated[at] ^= 0x20;
          CaseResult r = runner.run("flipped.parquet", mutated, ReadMode.draw(at));
          assertFalse(r.outcome().isFailure(), name + " byte " + at + ": " + r.outcome() + " " + r.detail());
        }
      }
    }
  }

  /** The digest lines (one per leaf, in leaf order) of the leaves {@code mode} reads. */
  private static List<String> readBy(List<String> lines, ReadMode mode) {
    return IntStream.range(0, lines.size()).filter(mode::reads).mapToObj(lines::get).toList();
  }

  private static ReadMode withStride(ReadMode m, int stride) {
    return new ReadMode(m.parallel(), m.coalesced(), m.buffered(), m.bufferSize(), m.batchSize(), m.verifyChecksums(),
        m.decodeAhead(), m.queueDepth(), stride);
  }

  /**
   * The statistics pass (Drill's planning decodes every footer with them) passes every intact file,
   * and lets a footer it refuses go on to the scan, which reports that file's own outcome.
   */
  @Test
  void theStatisticsPassLetsIntactFilesAndRefusalsThrough() throws Exception {
    List<Path> files = new ArrayList<>(SeedFiles.generate(dir.resolve("seeds")));
    files.addAll(CorpusFiles.goodFiles());
    ScanOptions options = ScanOptions.defaults();
    try (ScanPools pools = ScanPools.forOptions(options)) {
      ScanContext context = new ScanContext(FileSystem.getLocal(new Configuration()).getRaw(), options,
          new TrackingBufferSource(), pools.scanPool(), pools.decodePool(), new ScanMetrics());
      for (Path f : files) {
        assertEquals(null, FuzzRunner.statisticsFailure(context, new org.apache.hadoop.fs.Path(f.toUri()),
            f.getFileName().toString()), f.toString());
      }
      byte[] bytes = Files.readAllBytes(files.get(0));
      Path cut = dir.resolve("cut-footer.parquet");
      Files.write(cut, Arrays.copyOf(bytes, bytes.length - 3));
      assertEquals(null, FuzzRunner.statisticsFailure(context, new org.apache.hadoop.fs.Path(cut.toUri()),
          "cut-footer.parquet"), "a refused footer is the scan's to report");
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
   * parquet-java's pooled LZ4_RAW decoder reuses its output buffer and aircompressor takes a match
   * offset of 0, so its own answer on such a page depends on what it read before; the oracle
   * decodes LZ4_RAW on fresh arrays ({@link FreshLz4Codecs}): the same answer whatever came
   * before, equal to ours (which zeroes its destination) in every read mode.
   */
  @Test
  void lz4OffsetZeroPagesGetOneAnswerFromBothReaders() throws Exception {
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
    assertEquals(afterSeed, ParquetJavaDigest.digest(mutated, null), "the oracle's answer is a function of the file");
    byte[] bytes = Files.readAllBytes(mutated);
    try (FuzzRunner runner = new FuzzRunner(dir.resolve("work"), 10_000)) {
      for (long s = 0; s < 4; s++) {
        ParquetJavaDigest.digest(other, null);
        CaseResult r = runner.run("offset0.parquet", bytes, ReadMode.draw(s));
        assertEquals(Outcome.ACCEPTED, r.outcome(), r.detail());
        assertEquals(String.join("\n", afterSeed), r.detail(), "our values equal the oracle's in read mode " + s);
      }
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

  /**
   * A seed that parquet-java itself misreads gives no wrong values in the column it misreads, whatever
   * an edit does to it; a column both readers read alike in the seed is still judged. (The committed
   * reproducer whose chunk is cut a few bytes short, which parquet-java trusts, we now refuse.)
   */
  @Test
  void aColumnParquetJavaMisreadsInTheIntactSeedIsNotJudgedByItsReading() throws Exception {
    byte[] seed;
    try (java.io.InputStream in = getClass().getResourceAsStream(
        "/fuzz/flat-plain-v1-uncompressed-BYTE_SET-1938414f32707a93-WRONG_VALUES.parquet")) {
      seed = in.readAllBytes();
    }
    try (FuzzRunner runner = new FuzzRunner(dir.resolve("work"), 10_000)) {
      // The chunk's declared range bounds our reads: its last page, which runs past it, is refused in
      // every read mode (it was read on from the next chunk's bytes: values parquet-java disagreed with).
      CaseResult r = runner.run("seed.parquet", seed, ReadMode.draw(0), null);
      assertEquals(Outcome.CORRUPTION, r.outcome(), r.detail());
    }
    List<String> pj = List.of("a\t1", "flag\tpj");
    List<String> ours = List.of("a\t1", "flag\tours");
    assertTrue(FuzzRunner.seedValuesWhereTheyDiffer(List.of("a\t1", "flag\tours"), pj, pj, ours));
    assertTrue(FuzzRunner.seedValuesWhereTheyDiffer(List.of("a\t1", "flag\tother"), List.of("a\t1", "flag\tpj2"),
        pj, ours), "an edit of a column parquet-java misreads in the seed is not judged");
    assertTrue(!FuzzRunner.seedValuesWhereTheyDiffer(List.of("a\t1", "flag\tother"), pj, pj, List.of()),
        "without our reading of the seed, every column is judged");
    assertTrue(!FuzzRunner.seedValuesWhereTheyDiffer(List.of("a\t2", "flag\tpj"), List.of("a\t1", "flag\tpj"), pj,
        ours), "a column both readers read alike in the seed stays judged by parquet-java");
  }
}
