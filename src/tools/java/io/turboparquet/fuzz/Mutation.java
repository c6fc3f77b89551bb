package io.turboparquet.fuzz;

import io.turboparquet.format.PageType;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The fuzzer's mutation strategies. Each one is a pure function of the seed file's bytes and a
 * random source seeded from the case seed, so a case's bytes are reproduced exactly from
 * (seed file, strategy, case seed).
 */
public enum Mutation {
  /** Flips 1 to 4 bits, in the footer, a page header or anywhere. */
  BIT_FLIP {
    @Override
    byte[] apply(byte[] seed, FileLayout layout, SplittableRandom r) {
      byte[] out = seed.clone();
      int flips = 1 + r.nextInt(4);
      for (int i = 0; i < flips; i++) {
        out[position(seed, layout, r)] ^= (byte) (1 << r.nextInt(8));
      }
      return out;
    }
  },
  /** Sets 1 to 3 bytes to 0, 0xFF, 0x7F or 0x80. */
  BYTE_SET {
    @Override
    byte[] apply(byte[] seed, FileLayout layout, SplittableRandom r) {
      byte[] out = seed.clone();
      int sets = 1 + r.nextInt(3);
      for (int i = 0; i < sets; i++) {
        out[position(seed, layout, r)] = INTERESTING_BYTES[r.nextInt(INTERESTING_BYTES.length)];
      }
      return out;
    }
  },
  /**
   * Cuts bytes: the file's end, the footer's end (tail rewritten to the shorter length), a page
   * body's end (the rest of the file moves up), or the data before the footer.
   */
  TRUNCATE {
    @Override
    byte[] apply(byte[] seed, FileLayout layout, SplittableRandom r) {
      int n = seed.length;
      int variant = layout.hasFooter() ? r.nextInt(4) : 0;
      if (variant == 2 && layout.pages().isEmpty()) {
        variant = 1;
      }
      switch (variant) {
        case 1 -> {
          int keep = r.nextInt(layout.footerLength());
          byte[] footer = Arrays.copyOfRange(seed, layout.footerStart(), layout.footerStart() + keep);
          return withFooter(Arrays.copyOf(seed, layout.footerStart()), footer);
        }
        case 2 -> {
          FileLayout.Page p = layout.pages().get(r.nextInt(layout.pages().size()));
          int cut = p.bodyStart() + r.nextInt(Math.max(1, p.end() - p.bodyStart()));
          return concat(Arrays.copyOf(seed, cut), Arrays.copyOfRange(seed, p.end(), n));
        }
        case 3 -> {
          int cut = 4 + r.nextInt(Math.max(1, layout.footerStart() - 4));
          return concat(Arrays.copyOf(seed, cut), Arrays.copyOfRange(seed, layout.footerStart(), n));
        }
        default -> {
          return Arrays.copyOf(seed, r.nextInt(n));
        }
      }
    }
  },
  /** Sets one integer field, binary length or collection size of the footer to a hostile value. */
  FOOTER_FIELD {
    @Override
    boolean appliesTo(FileLayout layout) {
      return layout.hasFooter();
    }

    @Override
    byte[] apply(byte[] seed, FileLayout layout, SplittableRandom r) {
      int start = layout.footerStart();
      List<ThriftFields.Field> fields = ThriftFields.locate(seed, start, start + layout.footerLength());
      if (fields.isEmpty()) {
        return BIT_FLIP.apply(seed, layout, r);
      }
      ThriftFields.Field f = fields.get(r.nextInt(fields.size()));
      byte[] value = ThriftFields.encode(hostile(f.value(), r), f.zigzag());
      byte[] footer = concat(Arrays.copyOfRange(seed, start, f.start()), value,
          Arrays.copyOfRange(seed, f.start() + f.length(), start + layout.footerLength()));
      return withFooter(Arrays.copyOf(seed, start), footer);
    }
  },
  /** Sets one integer field of a page header to a hostile value, keeping the header's length. */
  PAGE_HEADER_FIELD {
    @Override
    boolean appliesTo(FileLayout layout) {
      return !layout.pages().isEmpty();
    }

    @Override
    byte[] apply(byte[] seed, FileLayout layout, SplittableRandom r) {
      FileLayout.Page p = layout.pages().get(r.nextInt(layout.pages().size()));
      return setField(seed, p, null, r);
    }
  },
  /** Swaps two data pages (header and body) of one column chunk. */
  PAGE_SWAP {
    @Override
    boolean appliesTo(FileLayout layout) {
      return !layout.chunksWithTwoDataPages().isEmpty();
    }

    @Override
    byte[] apply(byte[] seed, FileLayout layout, SplittableRandom r) {
      List<Integer> chunks = layout.chunksWithTwoDataPages();
      int chunk = chunks.get(r.nextInt(chunks.size()));
      List<FileLayout.Page> data = layout.pages().stream().filter(p -> p.chunk() == chunk && p.isData()).toList();
      int i = r.nextInt(data.size() - 1);
      int j = i + 1 + r.nextInt(data.size() - 1 - i);
      FileLayout.Page a = data.get(i);
      FileLayout.Page b = data.get(j);
      return concat(Arrays.copyOf(seed, a.offset()), Arrays.copyOfRange(seed, b.offset(), b.end()),
          Arrays.copyOfRange(seed, a.end(), b.offset()), Arrays.copyOfRange(seed, a.offset(), a.end()),
          Arrays.copyOfRange(seed, b.end(), seed.length));
    }
  },
  /** Corrupts a dictionary page: its num_values (e.g. fewer entries than the indices use) or its body. */
  DICTIONARY_EDIT {
    @Override
    boolean appliesTo(FileLayout layout) {
      return !layout.pagesOf(PageType.DICTIONARY_PAGE).isEmpty();
    }

    @Override
    byte[] apply(byte[] seed, FileLayout layout, SplittableRandom r) {
      List<FileLayout.Page> dictionaries = layout.pagesOf(PageType.DICTIONARY_PAGE);
      FileLayout.Page p = dictionaries.get(r.nextInt(dictionaries.size()));
      if (r.nextBoolean() || p.end() == p.bodyStart()) {
        // DictionaryPageHeader (PageHeader field 7).num_values is field 1 one struct down.
        return setField(seed, p, f -> f.depth() == 1 && f.id() == 1, r);
      }
      byte[] out = seed.clone();
      int edits = 1 + r.nextInt(4);
      for (int k = 0; k < edits; k++) {
        out[p.bodyStart() + r.nextInt(p.end() - p.bodyStart())] =
            INTERESTING_BYTES[r.nextInt(INTERESTING_BYTES.length)];
      }
      return out;
    }
  };

  private static final byte[] INTERESTING_BYTES = {0, (byte) 0xff, 0x7f, (byte) 0x80};

  /** Whether the strategy can mutate a file with this layout (every strategy can mutate some bytes). */
  boolean appliesTo(FileLayout layout) {
    return true;
  }

  abstract byte[] apply(byte[] seed, FileLayout layout, SplittableRandom r);

  /** A value that breaks size, count and offset arithmetic, often near the original. */
  static long hostile(long original, SplittableRandom r) {
    return switch (r.nextInt(12)) {
      case 0 -> 0;
      case 1 -> -1;
      case 2 -> 1;
      case 3 -> Integer.MAX_VALUE;
      case 4 -> 1L << 30;
      case 5 -> Integer.MIN_VALUE;
      case 6 -> 1L << 40;
      case 7 -> Long.MAX_VALUE;
      case 8 -> original + 1;
      case 9 -> original - 1;
      case 10 -> original * 2;
      default -> original / 2;
    };
  }

  /**
   * Sets a header field of page {@code p} (one that {@code which} accepts, or any) to a hostile
   * value in the same number of bytes, so the page body does not move.
   */
  private static byte[] setField(byte[] seed, FileLayout.Page p,
      java.util.function.Predicate<ThriftFields.Field> which, SplittableRandom r) {
    List<ThriftFields.Field> fields = ThriftFields.locate(seed, p.offset(), p.bodyStart());
    if (which != null) {
      fields = fields.stream().filter(which).toList();
    }
    if (fields.isEmpty()) {
      byte[] out = seed.clone();
      out[p.offset() + r.nextInt(p.bodyStart() - p.offset())] ^= (byte) (1 << r.nextInt(8));
      return out;
    }
    ThriftFields.Field f = fields.get(r.nextInt(fields.size()));
    byte[] value = ThriftFields.encodeFixed(hostile(f.value(), r), f.zigzag(), f.length());
    byte[] out = seed.clone();
    System.arraycopy(value, 0, out, f.start(), value.length);
    return out;
  }

  /** A byte to mutate: a quarter in the footer, a quarter in page headers, the rest anywhere. */
  private static int position(byte[] seed, FileLayout layout, SplittableRandom r) {
    int region = r.nextInt(4);
    if (region == 0 && layout.hasFooter()) {
      return layout.footerStart() + r.nextInt(layout.footerLength());
    }
    if (region == 1 && !layout.pages().isEmpty()) {
      FileLayout.Page p = layout.pages().get(r.nextInt(layout.pages().size()));
      return p.offset() + r.nextInt(p.bodyStart() - p.offset());
    }
    return r.nextInt(seed.length);
  }

  /** {@code data} followed by {@code footer}, its 4-byte length and PAR1. */
  private static byte[] withFooter(byte[] data, byte[] footer) {
    int n = footer.length;
    return concat(data, footer, new byte[] {(byte) n, (byte) (n >>> 8), (byte) (n >>> 16), (byte) (n >>> 24),
        'P', 'A', 'R', '1'});
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.write(p, 0, p.length);
    }
    return out.toByteArray();
  }
}
