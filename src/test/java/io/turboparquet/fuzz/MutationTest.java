package io.turboparquet.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.PageType;
import io.turboparquet.testing.CorpusFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MutationTest {
  @TempDir static Path dir;
  static List<SeedFile> seeds;

  @BeforeAll
  static void seeds() {
    seeds = new ArrayList<>(SeedFiles.load(SeedFiles.generate(dir.resolve("gen")).get(0).getParent(), "generated"));
    seeds.addAll(SeedFiles.load(CorpusFiles.dir(), "parquet-testing"));
  }

  @Test
  void theSameCaseGivesTheSameBytesAndReadMode() {
    for (SeedFile seed : seeds) {
      for (Mutation m : seed.strategies()) {
        for (long caseSeed = 1; caseSeed <= 3; caseSeed++) {
          FuzzCase c = new FuzzCase(seed.name(), m, caseSeed * 0x1234_5678_9L);
          FuzzCase again = new FuzzCase(seed.name(), m, c.caseSeed());
          assertArrayEquals(c.mutate(seed), again.mutate(SeedFile.of(seed.name(), seed.bytes().clone())), c.toString());
          assertEquals(c.readMode(), again.readMode());
        }
      }
    }
  }

  @Test
  void drawingIsDeterministicAndCoversEveryStrategy() {
    Set<Mutation> drawn = EnumSet.noneOf(Mutation.class);
    Set<String> files = new HashSet<>();
    for (long i = 0; i < 2000; i++) {
      FuzzCase c = FuzzCase.draw(7, i, seeds);
      assertEquals(c, FuzzCase.draw(7, i, seeds));
      drawn.add(c.strategy());
      files.add(c.seedFile());
    }
    assertEquals(EnumSet.allOf(Mutation.class), drawn);
    assertTrue(files.size() > seeds.size() / 2, files.size() + " of " + seeds.size() + " seed files drawn");
    assertNotEquals(FuzzCase.draw(7, 0, seeds).caseSeed(), FuzzCase.draw(8, 0, seeds).caseSeed());
  }

  @Test
  void everyStrategyChangesTheFileAndDifferentCaseSeedsDiffer() {
    for (SeedFile seed : seeds.stream().filter(s -> s.name().startsWith("generated/")).toList()) {
      boolean dictionary = !seed.layout().pagesOf(PageType.DICTIONARY_PAGE).isEmpty();
      assertEquals(dictionary ? EnumSet.allOf(Mutation.class) : EnumSet.complementOf(EnumSet.of(Mutation.DICTIONARY_EDIT)),
          EnumSet.copyOf(seed.strategies()), seed.name());
      for (Mutation m : seed.strategies()) {
        Set<String> distinct = new HashSet<>();
        int changed = 0;
        for (long caseSeed = 0; caseSeed < 20; caseSeed++) {
          byte[] b = new FuzzCase(seed.name(), m, caseSeed).mutate(seed);
          changed += Arrays.equals(b, seed.bytes()) ? 0 : 1;
          distinct.add(Arrays.toString(b));
          if (m != Mutation.TRUNCATE && m != Mutation.FOOTER_FIELD) {
            assertEquals(seed.bytes().length, b.length, m + " keeps the length");
          }
        }
        assertTrue(changed >= 15, m + " changed " + changed + " of 20 on " + seed.name());
        assertTrue(distinct.size() >= 5, m + " gave " + distinct.size() + " distinct files on " + seed.name());
      }
    }
  }

  @Test
  void pageSwapReordersTwoDataPagesOfAChunk() {
    SeedFile seed = seeds.stream().filter(s -> s.name().equals("generated/flat-plain-v1-uncompressed.parquet"))
        .findFirst().orElseThrow();
    byte[] swapped = new FuzzCase(seed.name(), Mutation.PAGE_SWAP, 42).mutate(seed);
    FileLayout after = FileLayout.of(swapped);
    assertEquals(seed.layout().footerStart(), after.footerStart());
    // Same pages, same bytes, another order: the multiset of page byte strings is unchanged.
    assertEquals(pageBodies(seed.bytes(), seed.layout()), pageBodies(swapped, after));
    assertFalse(Arrays.equals(seed.bytes(), swapped));
  }

  private static List<String> pageBodies(byte[] file, FileLayout layout) {
    return layout.pages().stream().map(p -> Arrays.toString(Arrays.copyOfRange(file, p.offset(), p.end())))
        .sorted().toList();
  }

  @Test
  void dictionaryEditsTouchOnlyADictionaryPage() {
    SeedFile seed = seeds.stream().filter(s -> s.name().equals("generated/flat-dict-v1-uncompressed-crc.parquet"))
        .findFirst().orElseThrow();
    List<FileLayout.Page> dictionaries = seed.layout().pagesOf(PageType.DICTIONARY_PAGE);
    assertFalse(dictionaries.isEmpty());
    for (long caseSeed = 0; caseSeed < 30; caseSeed++) {
      byte[] b = new FuzzCase(seed.name(), Mutation.DICTIONARY_EDIT, caseSeed).mutate(seed);
      for (int i = 0; i < b.length; i++) {
        if (b[i] != seed.bytes()[i]) {
          int at = i;
          assertTrue(dictionaries.stream().anyMatch(p -> at >= p.offset() && at < p.end()),
              "byte " + i + " changed outside every dictionary page (case seed " + caseSeed + ")");
        }
      }
    }
  }
}
