package io.turboparquet.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.scan.ScanOptions;
import io.turboparquet.testing.CorpusFiles;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One behaviour per file: the fuzzer's cases read in every read mode that must not change the
 * outcome (sync or async page reads, parallel decode, coalesced or chunk by chunk, row-group
 * prefetch, buffered or direct with several buffer sizes, coalesced parts and gaps, a memory budget
 * too small to coalesce, decode-ahead, queue depth, batch size) give the same rows (digest) or the
 * same error (exception types and messages, with file, row group, column and page). The footer
 * stride stays the case's own, since it reads other columns. Checksum verification legitimately
 * turns a page with a bad CRC into an error: those modes agree with each other, and with the others
 * unless one of them failed a CRC check. Runs in the capped {@code fuzz-tests} JVM.
 */
class ReadModeAgreementTest {
  /** A campaign seed of its own, so that these cases are not the CI campaign's first ones. */
  static final long SEED = 37L;
  static final long CASES = 300;

  private record Mode(String name, UnaryOperator<ScanOptions.Builder> settings) {
    ScanOptions options() {
      return settings.apply(ScanOptions.builder().scanThreads(2).decodeThreads(2).prefetchRowGroups(true)).build();
    }

    boolean checksums() {
      return options().decode().verifyChecksums();
    }
  }

  private static ScanOptions.Builder sync(ScanOptions.Builder b) {
    return b.asyncPageReads(false).parallelDecode(false).decodeAhead(false);
  }

  private static ScanOptions.Builder async(ScanOptions.Builder b) {
    return b.asyncPageReads(true).parallelDecode(true);
  }

  static final List<Mode> MODES = List.of(
      new Mode("sync direct", b -> sync(b).coalescedReads(false).bufferedReads(false)),
      new Mode("sync coalesced", b -> sync(b).coalescedReads(true).batchSize(100)),
      new Mode("sync buffered 1", b -> sync(b).coalescedReads(false).bufferedReads(true).bufferSize(1)),
      new Mode("sync buffered 7 batch 7", b -> sync(b).coalescedReads(false).bufferedReads(true).bufferSize(7)
          .batchSize(7)),
      new Mode("sync buffered 4096", b -> sync(b).coalescedReads(false).bufferedReads(true).bufferSize(4096)),
      new Mode("async direct queue 1", b -> async(b).coalescedReads(false).bufferedReads(false).queueDepth(1)
          .parallelDecode(false)),
      new Mode("async buffered 64 decode-ahead", b -> async(b).coalescedReads(false).bufferedReads(true)
          .bufferSize(64).decodeAhead(true).batchSize(100)),
      new Mode("async coalesced prefetch decode-ahead", b -> async(b).coalescedReads(true).decodeAhead(true)),
      new Mode("async coalesced no prefetch serial decode", b -> async(b).coalescedReads(true)
          .prefetchRowGroups(false).parallelDecode(false).batchSize(7)),
      new Mode("async coalesced 4 KiB parts 1 MiB gaps", b -> async(b).coalescedReads(true).coalesceMaxSize(4096)
          .coalesceGap(1 << 20)),
      new Mode("async coalesced, budget too small", b -> async(b).coalescedReads(true)
          .memoryBudget(ScanOptions.MIN_BUFFER_SIZE).queueDepth(3)),
      new Mode("sync direct checksums", b -> sync(b).coalescedReads(false).bufferedReads(false)
          .verifyChecksums(true)),
      new Mode("async coalesced checksums", b -> async(b).coalescedReads(true).verifyChecksums(true)));

  private static List<SeedFile> seeds;
  private static final Map<String, SeedFile> byName = new HashMap<>();
  private static FuzzRunner runner;

  @BeforeAll
  static void start() {
    Path out = Paths.get("target", "read-mode-agreement").toAbsolutePath();
    Path generated = out.resolve("seeds");
    SeedFiles.generate(generated);
    seeds = FuzzCampaign.seeds(List.of(CorpusFiles.dir()), generated, d -> "parquet-testing");
    seeds.forEach(s -> byName.put(s.name(), s));
    runner = new FuzzRunner(out.resolve("work"), 10_000);
  }

  @AfterAll
  static void stop() {
    runner.close();
  }

  /**
   * The cases that disagreed before the fixes, in the modes that disagreed: two columns broken at
   * different rows (batch size picked which error came first; the first case's chunk now fails the
   * footer's range check, in every mode), and an empty BYTE_ARRAY dictionary (its negative byte
   * bound named a number that changed with the batch size).
   */
  @ParameterizedTest
  @CsvSource({
      "parquet-testing/datapage_v1-uncompressed-checksum.parquet, TRUNCATE, 596bdf2dca63b50b, column b: ColumnMetaData.total_compressed_size 20536 at offset 20540 runs past",
      "parquet-testing/rle-dict-snappy-checksum.parquet, DICTIONARY_EDIT, fc91fdbd2e791be7, index 0 is out of range",
      "generated/flat-dict-v1-snappy.parquet, TRUNCATE, 465d7ecc89f8cd9e, column id: page header at offset 7668"})
  void casesThatDisagreedAgree(String seed, Mutation strategy, String caseSeed, String error) {
    FuzzCase c = new FuzzCase(seed, strategy, Long.parseUnsignedLong(caseSeed, 16));
    byte[] bytes = c.mutate(byName.get(seed));
    String small = key(runner.ours(c.fileName(), bytes, c.readMode(), MODES.get(3).options()));
    String large = key(runner.ours(c.fileName(), bytes, c.readMode(), MODES.get(0).options()));
    assertEquals(large, small);
    assertTrue(large.contains(error), large);
  }

  @Test
  void everyReadModeGivesTheSameOutcome() {
    List<String> disagreements = new ArrayList<>();
    Map<Outcome, Long> counts = new EnumMap<>(Outcome.class);
    long start = System.nanoTime();
    {
      for (long i = 0; i < CASES; i++) {
        FuzzCase c = FuzzCase.draw(SEED, i, seeds);
        byte[] bytes = c.mutate(byName.get(c.seedFile()));
        ReadMode drawn = c.readMode();
        String reference = null;
        String referenceChecksums = null;
        for (Mode m : MODES) {
          CaseResult r = runner.ours(c.fileName(), bytes, drawn, m.options());
          counts.merge(r.outcome(), 1L, Long::sum);
          String got = key(r);
          String want = m.checksums() ? referenceChecksums : reference;
          if (want == null) {
            if (m.checksums()) {
              referenceChecksums = got;
              if (!got.equals(reference) && !failedCrc(got) && !failedCrc(reference)) {
                disagreements.add(report(i, c, MODES.get(0), reference, m, got));
              }
            } else {
              reference = got;
            }
          } else if (!got.equals(want)) {
            disagreements.add(report(i, c, MODES.get(m.checksums() ? MODES.size() - 2 : 0), want, m, got));
          }
        }
      }
    }
    System.out.printf("read-mode agreement: %d cases x %d modes, %.1f s, %s%n", CASES, MODES.size(),
        (System.nanoTime() - start) / 1e9, counts);
    disagreements.stream().limit(40).forEach(System.out::println);
    assertEquals(List.of(), disagreements.stream().limit(10).toList(), disagreements.size() + " disagreements");
  }

  /** What must agree: the outcome and the digest lines, or the exception chain's types and messages. */
  private static String key(CaseResult r) {
    return r.outcome() + " " + (r.outcome() == Outcome.ACCEPTED ? r.detail() : r.headline());
  }

  private static boolean failedCrc(String key) {
    return key.contains("fails its CRC check");
  }

  private static String report(long i, FuzzCase c, Mode a, String outcomeA, Mode b, String outcomeB) {
    return "case " + i + " " + c + " (footer stride " + c.readMode().footerStride() + ")\n  " + a.name() + ": "
        + outcomeA + "\n  " + b.name() + ": " + outcomeB;
  }
}
