package io.turboparquet.clickbench;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The entities hits are drawn from, built once per file from the seed: pages (URL, title, URL
 * hash), referers (text, hash) and search phrases, as UTF-8 bytes so that writing a row copies no
 * text. Their sizes grow with the row count (capped), so that group-bys keep many groups with
 * skewed counts at every scale; some words are Cyrillic, as in the real data, so lengths in
 * characters and in bytes differ.
 */
final class HitPools {
  /** ClickBench's Q41 filters on this referer hash: referer 0 carries it. */
  static final long LOOKED_UP_REFERER_HASH = 3594120000172545465L;
  /** ClickBench's Q42 filters on this URL hash: page 1 (a frequent one) carries it. */
  static final long LOOKED_UP_URL_HASH = 2868770270353813622L;

  private static final String[] TLDS = {".ru", ".ru", ".ru", ".com", ".net", ".org", ".ua", ".by", ".kz"};
  private static final String[] GOOGLE_HOSTS = {"www.google.ru", "www.google.com", "google.com.ua", "images.google.ru",
      "maps.google.com", "news.google.ru"};
  private static final String[] SEARCH_HOSTS = {"yandex.ru/yandsearch?text=", "go.mail.ru/search?q=",
      "www.google.ru/search?q=", "nova.rambler.ru/search?query=", "www.bing.com/search?q="};
  private static final String[] LATIN = {"ka", "ro", "mi", "ne", "to", "sa", "li", "po", "va", "de", "ra", "ni", "mo",
      "ko", "te", "lo", "an", "el", "or", "in", "us", "ba", "gu", "fi", "st", "pr", "ch", "sh", "ex", "al"};
  private static final String[] CYRILLIC = {"ка", "ро", "ми", "не", "то", "са", "ли", "по", "ва", "де", "ра", "ни",
      "мо", "ко", "те", "ло", "ан", "ел", "ор", "ин", "ус", "ба", "гу", "фи", "ст", "пр", "ч", "ш", "ж", "ы"};

  final byte[][] pageUrl;
  final byte[][] pageTitle;
  final long[] pageUrlHash;
  final byte[][] referer;
  final long[] refererHash;
  final byte[][] phrase;

  private final String[] latinWords;
  private final String[] cyrillicWords;
  private final String[] domains;

  HitPools(long rows, long seed) {
    SplittableRandom random = new SplittableRandom(seed ^ 0x5EED_C11C_BE7CL);
    latinWords = words(random, LATIN, 3_000);
    cyrillicWords = words(random, CYRILLIC, 1_500);
    domains = new String[2_000];
    for (int i = 0; i < domains.length; i++) {
      domains[i] = i % 40 == 7 ? GOOGLE_HOSTS[i / 40 % GOOGLE_HOSTS.length]
          : latinWords[random.nextInt(latinWords.length)] + latinWords[random.nextInt(latinWords.length)]
              + TLDS[random.nextInt(TLDS.length)];
    }
    int pages = scaled(rows, 20, 500, 500_000);
    pageUrl = new byte[pages][];
    pageTitle = new byte[pages][];
    pageUrlHash = new long[pages];
    for (int i = 0; i < pages; i++) {
      String url = i % 97 == 13 ? "" : url(random);
      pageUrl[i] = utf8(url);
      pageUrlHash[i] = i == 1 ? LOOKED_UP_URL_HASH : fnv(pageUrl[i]);
      pageTitle[i] = utf8(i % 11 == 4 ? "" : title(random));
    }
    int referers = scaled(rows, 40, 300, 250_000);
    referer = new byte[referers][];
    refererHash = new long[referers];
    for (int i = 0; i < referers; i++) {
      int kind = random.nextInt(10);
      String text = kind < 6 ? url(random) : "https://" + SEARCH_HOSTS[random.nextInt(SEARCH_HOSTS.length)]
          + sentence(random, 1 + random.nextInt(3), "+") + "&lr=" + random.nextInt(300);
      referer[i] = utf8(text);
      refererHash[i] = i == 0 ? LOOKED_UP_REFERER_HASH : fnv(referer[i]);
    }
    phrase = new byte[scaled(rows, 40, 200, 300_000)][];
    for (int i = 0; i < phrase.length; i++) {
      phrase[i] = utf8(sentence(random, 1 + random.nextInt(4), " "));
    }
  }

  private static int scaled(long rows, int divisor, int min, int max) {
    return (int) Math.max(min, Math.min(max, rows / divisor));
  }

  private static String[] words(SplittableRandom random, String[] syllables, int count) {
    String[] words = new String[count];
    for (int i = 0; i < count; i++) {
      StringBuilder w = new StringBuilder();
      for (int s = 1 + random.nextInt(4); s > 0; s--) {
        w.append(syllables[random.nextInt(syllables.length)]);
      }
      words[i] = w.toString();
    }
    return words;
  }

  /** A word, Cyrillic two times in five; frequent words more often (squared uniform). */
  private String word(SplittableRandom random) {
    double u = random.nextDouble();
    String[] words = random.nextInt(5) < 2 ? cyrillicWords : latinWords;
    return words[(int) (words.length * u * u)];
  }

  private String sentence(SplittableRandom random, int words, String separator) {
    StringBuilder s = new StringBuilder(word(random));
    for (int i = 1; i < words; i++) {
      s.append(separator).append(word(random));
    }
    return s.toString();
  }

  /** http(s)://[www.]domain/seg/seg[?id=N&from=W]: 30 to 150 characters, as the real ones mostly are. */
  private String url(SplittableRandom random) {
    double u = random.nextDouble();
    StringBuilder url = new StringBuilder(random.nextInt(10) < 7 ? "http://" : "https://");
    String domain = domains[(int) (domains.length * u * u)];
    if (!domain.contains("google") && random.nextBoolean()) {
      url.append("www.");
    }
    url.append(domain).append('/');
    for (int s = random.nextInt(5); s > 0; s--) {
      url.append(latinWords[random.nextInt(latinWords.length)]).append('/');
    }
    if (random.nextInt(3) == 0) {
      url.append("item.php?id=").append(random.nextInt(1_000_000)).append("&from=")
          .append(random.nextInt(50) == 0 ? "google" : latinWords[random.nextInt(latinWords.length)]);
    }
    return url.toString();
  }

  /** Words and a site name; one title in twenty-five mentions Google. */
  private String title(SplittableRandom random) {
    String text = sentence(random, 2 + random.nextInt(8), " ");
    if (random.nextInt(25) == 0) {
      text = "Google " + text;
    }
    return text + " - " + latinWords[random.nextInt(latinWords.length)] + ".ru";
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** FNV-1a, 64 bits: a stable hash like the real URLHash / RefererHash columns (any hash would do). */
  static long fnv(byte[] bytes) {
    long h = 0xcbf29ce484222325L;
    for (byte b : bytes) {
      h = (h ^ (b & 0xff)) * 0x100000001b3L;
    }
    return h;
  }
}
