package io.turboparquet.clickbench;

import java.util.SplittableRandom;

/**
 * One generated hit: the choices its columns share (visitor, page, referer, search, time, counter),
 * drawn by {@link #next()}; {@link HitsSchema} derives the 105 column values from them. The
 * distributions are made for ClickBench's queries: CounterID 62 frequent, EventTime in July 2013,
 * most SearchPhrase and MobilePhoneModel empty, AdvEngineID mostly 0, skewed visitors, pages and
 * phrases so that the top-N queries rank real counts.
 */
final class Hit {
  /** ClickBench's Q20 looks this UserID up: visitor 3 (a frequent one) has it. */
  static final long LOOKED_UP_USER = 435090932899640449L;
  /** 2013-07-01T00:00:00Z in epoch seconds: Q37-Q43 ask for July 2013. */
  static final long JULY_2013 = 1_372_636_800L;
  static final int SECONDS_PER_DAY = 86_400;
  private static final int[] BIG_COUNTERS = {1_143, 1_294, 3_922, 4_817, 7_112, 9_801, 11_540, 13_078, 16_362,
      19_655, 22_340, 24_786, 29_914, 33_505, 37_102, 42_861};
  static final int[] WIDTHS = {1_024, 1_280, 1_366, 1_440, 1_600, 1_920, 1_280, 1_366, 0, 320};
  static final int[] HEIGHTS = {768, 1_024, 768, 900, 900, 1_080, 800, 768, 0, 480};

  final SplittableRandom random;
  final HitPools pools;
  private final int users;

  long userId;
  /** Attributes of the visitor (region, resolution, OS, ...) come from this hash of it. */
  long userHash;
  int clientIp;
  int page;
  /** -1: no referer. */
  int referer;
  /** -1: no search phrase. */
  int phrase;
  int searchEngine;
  int advEngine;
  int counterId;
  long eventTime;
  int trafficSource;
  int mobileModel;

  Hit(long rows, long seed) {
    random = new SplittableRandom(seed);
    pools = new HitPools(rows, seed);
    users = (int) Math.max(1_000, Math.min(4_000_000, rows / 6));
  }

  void next() {
    double u = random.nextDouble();
    int user = (int) (users * u * u * u);
    userHash = mix(user * 0x9E3779B97F4A7C15L + 17);
    userId = user == 3 ? LOOKED_UP_USER : userHash >>> 1;
    // a visitor mostly keeps one address
    clientIp = (int) mix(userHash + (random.nextInt(5) == 0 ? random.nextInt(4) : 0));
    page = skewed(pools.pageUrl.length);
    int r = random.nextInt(100);
    referer = r < 35 ? -1 : r < 37 ? 0 : skewed(pools.referer.length);
    phrase = random.nextInt(100) < 12 ? skewed(pools.phrase.length) : -1;
    searchEngine = phrase >= 0 ? 1 + skewed(20) : random.nextInt(40) == 0 ? 1 + random.nextInt(20) : 0;
    advEngine = random.nextInt(100) < 4 ? 1 + skewed(30) : 0;
    int c = random.nextInt(100);
    counterId = c < 20 ? 62 : c < 60 ? BIG_COUNTERS[random.nextInt(BIG_COUNTERS.length)] : 1 + random.nextInt(200_000);
    eventTime = JULY_2013 + random.nextLong(31L * SECONDS_PER_DAY);
    int t = random.nextInt(100);
    trafficSource = phrase >= 0 ? 2 : t < 5 ? -1 : t < 45 ? 0 : t < 65 ? 1 : t < 75 ? 6 : 3 + t % 7;
    mobileModel = random.nextInt(10) == 0 ? skewed(MobileModels.NAMES.length) : -1;
  }

  /** 0..n-1, small values far more often (squared uniform). */
  int skewed(int n) {
    double u = random.nextDouble();
    return (int) (n * u * u);
  }

  /** An attribute of the visitor: 0..n-1, fixed per visitor ({@code salt} picks which one). */
  int userAttribute(int salt, int n) {
    return (int) Long.remainderUnsigned(mix(userHash + salt), n);
  }

  /** A 0/1 flag set in {@code percent} of the hits. */
  int flag(int percent) {
    return random.nextInt(100) < percent ? 1 : 0;
  }

  /** SplitMix64's finaliser: a stable 64-bit mix. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Phone models for MobilePhoneModel (one hit in ten has one). */
  static final class MobileModels {
    static final String[] NAMES = {"iPad", "iPhone", "GT-I9300", "GT-I9100", "GT-N7100", "HTC One", "Lumia 920",
        "Nexus 4", "Nexus 7", "Xperia Z", "Galaxy Tab", "LG-P705", "MB526", "HUAWEI U8950", "Lenovo P770",
        "GT-S5830", "Sony Ericsson", "Nokia 5800", "SGH-i900", "Desire HD"};

    private MobileModels() {}
  }
}
