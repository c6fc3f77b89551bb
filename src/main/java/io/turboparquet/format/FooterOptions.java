package io.turboparquet.format;

import java.util.List;
import java.util.function.Predicate;

/**
 * What a footer decode materialises. The schema and the row-group skeleton are always decoded;
 * column-chunk metadata only for {@code columns}, statistics only for {@code statistics} (a
 * subset of {@code columns} in practice), key-value metadata only under the keys {@code keyValues}
 * accepts. Everything else is skipped, not parsed into objects.
 *
 * @param maxStringLength longest string or binary accepted in the footer (beyond the footer's own
 *     size, which always bounds it)
 */
public record FooterOptions(ColumnSelector columns, ColumnSelector statistics, Predicate<String> keyValues,
    int maxStringLength) {
  public static final int DEFAULT_MAX_STRING_LENGTH = 64 << 20;
  public static final Predicate<String> EVERY_KEY = key -> true;
  public static final Predicate<String> NO_KEY = key -> false;

  /** Every column chunk, no statistics, every key-value. */
  public static final FooterOptions DEFAULT =
      new FooterOptions(ColumnSelector.ALL, ColumnSelector.NONE, EVERY_KEY, DEFAULT_MAX_STRING_LENGTH);

  public FooterOptions {
    if (columns == null || statistics == null || keyValues == null) {
      throw new IllegalArgumentException("selectors must not be null");
    }
    if (maxStringLength < 0) {
      throw new IllegalArgumentException("maxStringLength must not be negative: " + maxStringLength);
    }
  }

  /** Only the chunks of the named columns (dotted paths or groups, as {@link Schema#project}). */
  public static FooterOptions projecting(List<String> names) {
    return DEFAULT.withColumns(ColumnSelector.names(names));
  }

  public FooterOptions withColumns(ColumnSelector selector) {
    return new FooterOptions(selector, statistics, keyValues, maxStringLength);
  }

  public FooterOptions withStatistics(ColumnSelector selector) {
    return new FooterOptions(columns, selector, keyValues, maxStringLength);
  }

  /**
   * Key-value metadata only under the keys {@code keys} accepts: writers store large values there
   * (pyarrow's {@code ARROW:schema}, pandas' column list) that most readers never look at.
   */
  public FooterOptions withKeyValues(Predicate<String> keys) {
    return new FooterOptions(columns, statistics, keys, maxStringLength);
  }

  public FooterOptions withMaxStringLength(int max) {
    return new FooterOptions(columns, statistics, keyValues, max);
  }

  /** Chooses leaves once the schema is known. */
  @FunctionalInterface
  public interface ColumnSelector {
    ColumnSelector ALL = schema -> null;
    ColumnSelector NONE = schema -> new boolean[schema.columns().size()];

    /** One flag per leaf in schema order, or null for every leaf. */
    boolean[] select(Schema schema);

    /** Leaves named as {@link Schema#project} takes them; fails on a name that matches nothing. */
    static ColumnSelector names(List<String> names) {
      return schema -> {
        boolean[] out = new boolean[schema.columns().size()];
        for (ColumnDescriptor c : schema.project(names)) {
          out[c.index()] = true;
        }
        return out;
      };
    }

    /** Leaves by index; indexes beyond the schema are ignored. */
    static ColumnSelector leaves(int... indexes) {
      return schema -> {
        boolean[] out = new boolean[schema.columns().size()];
        for (int i : indexes) {
          if (i >= 0 && i < out.length) {
            out[i] = true;
          }
        }
        return out;
      };
    }
  }
}
