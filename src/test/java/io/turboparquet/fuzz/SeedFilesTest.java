package io.turboparquet.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.PageType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeedFilesTest {
  @TempDir Path dir;

  @Test
  void generatedSeedsAreByteForByteReproducibleSmallAndVaried() throws Exception {
    List<Path> a = SeedFiles.generate(dir.resolve("a"));
    List<Path> b = SeedFiles.generate(dir.resolve("b"));
    assertEquals(a.size(), b.size());
    for (int i = 0; i < a.size(); i++) {
      assertArrayEquals(Files.readAllBytes(a.get(i)), Files.readAllBytes(b.get(i)), a.get(i).toString());
    }
    List<SeedFile> seeds = SeedFiles.load(dir.resolve("a"), "generated");
    assertEquals(a.size(), seeds.size(), "every generated seed is small enough to keep");
    for (SeedFile s : seeds) {
      assertTrue(s.bytes().length <= SeedFiles.MAX_SEED_BYTES, s.name());
      assertTrue(s.layout().chunksWithTwoDataPages().size() > 1, s.name() + " has several pages per chunk");
    }
    assertTrue(seeds.stream().anyMatch(s -> !s.layout().pagesOf(PageType.DATA_PAGE_V2).isEmpty()));
    assertTrue(seeds.stream().anyMatch(s -> !s.layout().pagesOf(PageType.DATA_PAGE).isEmpty()));
    assertTrue(seeds.stream().filter(s -> !s.layout().pagesOf(PageType.DICTIONARY_PAGE).isEmpty()).count() >= 4);
  }

  /** A small file whose page decompresses to a GiB would be an OOM in every case: it is no seed. */
  @Test
  void aSeedWhosePagesDecompressBeyondTheCapsIsLeftOut() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    for (String name : List.of("large_string_map.brotli.parquet", "data_index_bloom_encoding_stats.parquet")) {
      try (java.io.InputStream in = getClass().getResourceAsStream("/parquet-testing/" + name)) {
        Files.write(corpus.resolve(name), in.readAllBytes());
      }
    }
    assertTrue(Files.size(corpus.resolve("large_string_map.brotli.parquet")) <= SeedFiles.MAX_SEED_BYTES);
    assertTrue(SeedFile.of("x", Files.readAllBytes(corpus.resolve("large_string_map.brotli.parquet"))).layout()
        .pages().stream().anyMatch(p -> p.uncompressedSize() > SeedFiles.MAX_SEED_PAGE_BYTES));
    assertEquals(List.of("t/data_index_bloom_encoding_stats.parquet"),
        SeedFiles.load(corpus, "t").stream().map(SeedFile::name).toList());
  }
}
