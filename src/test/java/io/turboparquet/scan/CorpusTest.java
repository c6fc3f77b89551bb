package io.turboparquet.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.testing.OracleDigest;
import io.turboparquet.testing.WriterFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The parquet-testing corpus and the files of common writers ({@link WriterFiles}): files from other
 * writers digest as parquet-java reads them (where it can; a writer file it must read), and the
 * bad_data files are refused with an error naming the file, without leaking.
 */
class CorpusTest {
  static final Path CORPUS = Path.of(System.getProperty("turbo.parquet.testing", "../shared/data/parquet-testing"));
  private static ScanHarness harness;

  @BeforeAll
  static void setUp() {
    harness = new ScanHarness();
  }

  @AfterAll
  static void tearDown() {
    harness.close();
  }

  static List<Path> parquetFiles(Path directory) throws IOException {
    try (Stream<Path> s = Files.list(directory)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".parquet")).sorted().collect(Collectors.toList());
    }
  }

  @TestFactory
  Stream<DynamicTest> goodFilesMatchParquetJava() throws IOException {
    List<Path> files = new ArrayList<>(parquetFiles(CORPUS));
    assertTrue(files.size() >= 30, "corpus not found at " + CORPUS.toAbsolutePath());
    List<Path> writerFiles = WriterFiles.all();
    assertEquals(WriterFiles.WRITERS.size(), writerFiles.size(), "writer files in " + WriterFiles.dir());
    files.addAll(writerFiles);
    List<DynamicTest> tests = new ArrayList<>();
    for (Path file : files) {
      boolean oracleMustRead = writerFiles.contains(file);
      String name = (oracleMustRead ? "writers/" : "") + file.getFileName();
      tests.add(DynamicTest.dynamicTest(name, () -> {
        List<String> ours = harness.digest(file, null, ScanOptions.defaults());
        List<String> tinyBuffers = harness.digest(file, null,
            ScanOptions.builder().bufferSize(10).batchSize(3).verifyChecksums(true).build());
        assertEquals(ours, tinyBuffers, "tiny buffers and batches change nothing");
        List<String> expected;
        try {
          expected = OracleDigest.digest(file, null);
        } catch (Exception | Error oracleFailed) {
          if (oracleMustRead) {
            throw oracleFailed;
          }
          // parquet-java cannot read this file here; CorpusExpectationsTest covers what it holds.
          assertTrue(!ours.isEmpty(), "we read " + file);
          return;
        }
        assertEquals(expected, ours, file.getFileName().toString());
      }));
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> badFilesAreRefusedNamingTheFile() throws IOException {
    List<Path> files = parquetFiles(CORPUS.resolve("bad_data"));
    assertTrue(files.size() >= 3, "bad_data corpus not found");
    List<DynamicTest> tests = new ArrayList<>();
    for (Path file : files) {
      for (ScanOptions options : List.of(ScanOptions.defaults(),
          ScanOptions.builder().asyncPageReads(false).parallelDecode(false).build())) {
        tests.add(DynamicTest.dynamicTest(file.getFileName() + " " + options.io().asyncPageReads(), () -> {
          Exception e = assertThrows(Exception.class, () -> harness.digest(file, null, options));
          assertTrue(e instanceof IOException || e instanceof UnsupportedOperationException,
              "a clear error, not " + e);
          assertTrue(e.getMessage() != null && e.getMessage().contains(file.getFileName().toString()),
              "the message names the file: " + e.getMessage());
        }));
      }
    }
    return tests.stream();
  }
}
