package io.turboparquet.fuzz;

import java.util.List;
import java.util.SplittableRandom;

/**
 * One fuzz case: a seed file, a strategy and a case seed. The mutated bytes and the read mode are
 * functions of these three alone, so any case is reproduced from them.
 */
public record FuzzCase(String seedFile, Mutation strategy, long caseSeed) {

  /** Case {@code index} of a campaign seeded with {@code campaignSeed}: seed file and strategy drawn from it. */
  public static FuzzCase draw(long campaignSeed, long index, List<SeedFile> seeds) {
    long caseSeed = mix(campaignSeed * 0x9E3779B97F4A7C15L + index);
    SplittableRandom r = new SplittableRandom(caseSeed ^ 0x5DEECE66DL);
    SeedFile seed = seeds.get(r.nextInt(seeds.size()));
    List<Mutation> strategies = seed.strategies();
    return new FuzzCase(seed.name(), strategies.get(r.nextInt(strategies.size())), caseSeed);
  }

  /** The mutated bytes of this case for its seed file. */
  public byte[] mutate(SeedFile seed) {
    if (!seed.name().equals(seedFile)) {
      throw new IllegalArgumentException("case of " + seedFile + " given seed file " + seed.name());
    }
    if (!strategy.appliesTo(seed.layout())) {
      throw new IllegalArgumentException(strategy + " does not apply to " + seedFile);
    }
    return strategy.apply(seed.bytes(), seed.layout(), new SplittableRandom(caseSeed));
  }

  /** How this case's mutated file is read. */
  public ReadMode readMode() {
    return ReadMode.draw(caseSeed);
  }

  /** A file name for this case's bytes, e.g. {@code alltypes_plain-BIT_FLIP-1a2b3c.parquet}. */
  public String fileName() {
    String base = seedFile.substring(seedFile.lastIndexOf('/') + 1).replace(".parquet", "");
    return base + "-" + strategy + "-" + Long.toHexString(caseSeed) + ".parquet";
  }

  @Override
  public String toString() {
    return seedFile + " " + strategy + " " + Long.toHexString(caseSeed);
  }

  /** SplitMix64's finaliser: neighbouring indexes give unrelated case seeds. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
