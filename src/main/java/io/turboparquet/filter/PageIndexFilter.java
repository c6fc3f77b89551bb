package io.turboparquet.filter;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.ColumnIndex;

/**
 * The rows of a row group a {@link Filter} may match, from the column indexes of its columns: per
 * page, the bounds ({@code min_values}/{@code max_values}, which may be truncated for binary but
 * are still bounds), {@code null_pages} and {@code null_counts} decide whether any of its rows can
 * match; AND intersects, OR unites. Whatever cannot be decided keeps every row: a column without a
 * usable index, an order this reader does not implement, bounds that do not decode or contradict
 * each other, NaN bounds, and (for FLOAT/DOUBLE) {@code >}, {@code >=} and {@code <>}, which a NaN
 * may satisfy in engines that order NaN above all numbers while some writers leave NaN out of the
 * bounds, unless the page's {@code nan_counts} entry says it holds none. The caller leaves out
 * column indexes whose column order makes their bounds unusable ({@code ColumnOrder#boundsUsable}).
 * The boundary order is not used: pages are tested one by one (cheap: one test per page).
 */
public final class PageIndexFilter {
  /** One row group's page indexes, as far as they are present and valid. */
  public interface Indexes {
    /** The column index of leaf {@code leaf}, or null. */
    ColumnIndex columnIndex(int leaf);

    /** The first row of each page of leaf {@code leaf} (validated: starts at 0, increasing, below the row count), or null. */
    long[] pageFirstRows(int leaf);
  }

  private PageIndexFilter() {}

  /** Rows of a row group of {@code numRows} rows that may match {@code filter}. */
  public static RowRanges rowRanges(Filter filter, long numRows, Indexes indexes) {
    return ranges(filter.root(), numRows, indexes);
  }

  private static RowRanges ranges(Filter.Node node, long numRows, Indexes indexes) {
    if (node instanceof Filter.All a) {
      RowRanges out = RowRanges.all(numRows);
      for (Filter.Node t : a.terms()) {
        out = out.intersect(ranges(t, numRows, indexes));
        if (out.isEmpty()) {
          break;
        }
      }
      return out;
    }
    if (node instanceof Filter.Any a) {
      RowRanges out = RowRanges.empty();
      for (Filter.Node t : a.terms()) {
        out = out.union(ranges(t, numRows, indexes));
      }
      return out;
    }
    return leaf((Filter.Leaf) node, numRows, indexes);
  }

  private static RowRanges leaf(Filter.Leaf leaf, long numRows, Indexes indexes) {
    ColumnDescriptor column = leaf.column();
    RowRanges all = RowRanges.all(numRows);
    if (!column.isFlat() || leaf.kind() == Filter.Kind.INTERSECTS || leaf.kind() == Filter.Kind.LIKE
        || leaf.kind() == Filter.Kind.NOT_LIKE) {
      // The page index holds no bounding boxes; a LIKE's prefix comes as a range of its own (Predicate.like).
      return all;
    }
    if (column.isRequired()) { // never null
      if (leaf.kind() == Filter.Kind.IS_NULL) {
        return RowRanges.empty();
      }
      if (leaf.kind() == Filter.Kind.NOT_NULL) {
        return all;
      }
    }
    boolean compares = leaf.kind() == Filter.Kind.COMPARE || leaf.kind() == Filter.Kind.IN;
    if (compares && leaf.order() == null) {
      return all;
    }
    ColumnIndex ci = indexes.columnIndex(column.index());
    long[] first = indexes.pageFirstRows(column.index());
    if (ci == null || first == null || ci.pageCount() != first.length) {
      return all;
    }
    RowRanges.Builder out = new RowRanges.Builder();
    int pages = first.length;
    for (int i = 0; i < pages; i++) {
      long end = i + 1 < pages ? first[i + 1] : numRows;
      if (mayMatch(leaf, ci, i, end - first[i])) {
        out.add(first[i], end);
      }
    }
    return out.build();
  }

  /** Whether page {@code i} (of {@code pageRows} rows) may hold a row that matches. */
  static boolean mayMatch(Filter.Leaf leaf, ColumnIndex ci, int i, long pageRows) {
    boolean nullPage = ci.nullPages()[i];
    long nullCount = ci.nullCounts() == null ? -1 : ci.nullCounts()[i];
    // A null page is believed only where it is possible and the null count, if any, agrees.
    boolean onlyNulls = nullPage && !leaf.column().isRequired() && (nullCount < 0 || nullCount == pageRows);
    switch (leaf.kind()) {
      case IS_NULL:
        return nullPage || nullCount != 0; // an absent count (-1) decides nothing
      case NOT_NULL:
        return !onlyNulls;
      default:
        break;
    }
    if (nullPage) {
      return !onlyNulls;
    }
    ValueOrder order = leaf.order();
    Object min = order.decode(ci.minValues().get(i));
    Object max = order.decode(ci.maxValues().get(i));
    if (min == null || max == null || order.isNaN(min) || order.isNaN(max) || order.compare(min, max) > 0) {
      return true;
    }
    Predicate.Op op = leaf.op();
    // nan_counts, where written, say whether the page holds NaN (its bounds never include them).
    boolean mayHoldNaN = order.mayHideNaN() && (ci.nanCounts() == null || ci.nanCounts()[i] != 0);
    if (mayHoldNaN && (op == Predicate.Op.GT || op == Predicate.Op.GE || op == Predicate.Op.NE)) {
      return true;
    }
    for (Object v : leaf.values()) {
      boolean may = order.isNaN(v) ? op != Predicate.Op.EQ || mayHoldNaN
          : within(op, order.compare(min, v), order.compare(max, v));
      if (may) {
        return true;
      }
    }
    return false;
  }

  /** Whether some value in [min, max] can satisfy {@code x op v}, given min vs v and max vs v. */
  private static boolean within(Predicate.Op op, int minVsV, int maxVsV) {
    return switch (op) {
      case EQ -> minVsV <= 0 && maxVsV >= 0;
      case NE -> !(minVsV == 0 && maxVsV == 0);
      case LT -> minVsV < 0;
      case LE -> minVsV <= 0;
      case GT -> maxVsV > 0;
      case GE -> maxVsV >= 0;
    };
  }
}
