package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.BINARY;
import static io.turboparquet.format.thrift.ThriftCursor.BOOLEAN_TRUE;
import static io.turboparquet.format.thrift.ThriftCursor.I32;
import static io.turboparquet.format.thrift.ThriftCursor.I64;
import static io.turboparquet.format.thrift.ThriftCursor.LIST;
import static io.turboparquet.format.thrift.ThriftCursor.STRUCT;

import io.turboparquet.format.ColumnIndex;
import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.OffsetIndex;
import io.turboparquet.format.ParquetCorruptionException;
import java.util.ArrayList;
import java.util.List;

/**
 * The page index (ColumnIndex, OffsetIndex), decoded only on request from bytes the caller read
 * at {@code ColumnChunkMeta.pageIndex()}.
 */
public final class PageIndexDecoder {
  private PageIndexDecoder() {}

  public static ColumnIndex readColumnIndex(String file, byte[] bytes, int offset, int length)
      throws ParquetCorruptionException {
    ThriftCursor r = new ThriftCursor(file, "column index", bytes, offset, length,
        FooterOptions.DEFAULT_MAX_STRING_LENGTH);
    boolean[] nullPages = null;
    List<byte[]> mins = null;
    List<byte[]> maxs = null;
    int boundaryOrder = -1;
    long[] nullCounts = null;
    long[] repHistograms = null;
    long[] defHistograms = null;
    long[] nanCounts = null;
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (1 << 4 | LIST)) {
        nullPages = bools(r, "ColumnIndex.null_pages");
        f = r.readField(1);
      }
      if (f == (2 << 4 | LIST)) {
        mins = binaries(r, "ColumnIndex.min_values");
        f = r.readField(2);
      }
      if (f == (3 << 4 | LIST)) {
        maxs = binaries(r, "ColumnIndex.max_values");
        f = r.readField(3);
      }
      if (f == (4 << 4 | I32)) {
        boundaryOrder = r.readI32();
        f = r.readField(4);
      }
      if (f == (5 << 4 | LIST)) {
        nullCounts = longs(r, "ColumnIndex.null_counts");
        f = r.readField(5);
      }
      if (f == (6 << 4 | LIST)) {
        repHistograms = longs(r, "ColumnIndex.repetition_level_histograms");
        f = r.readField(6);
      }
      if (f == (7 << 4 | LIST)) {
        defHistograms = longs(r, "ColumnIndex.definition_level_histograms");
        f = r.readField(7);
      }
      if (f == (8 << 4 | LIST)) {
        nanCounts = longs(r, "ColumnIndex.nan_counts");
        f = r.readField(8);
      }
      f = r.position() == at ? r.skipField(f) : f;
    }
    r.require(nullPages != null, "ColumnIndex.null_pages");
    r.require(mins != null, "ColumnIndex.min_values");
    r.require(maxs != null, "ColumnIndex.max_values");
    r.require(boundaryOrder != -1, "ColumnIndex.boundary_order");
    int pages = nullPages.length;
    if (mins.size() != pages || maxs.size() != pages || nullCounts != null && nullCounts.length != pages
        || nanCounts != null && nanCounts.length != pages) {
      throw r.corrupt("ColumnIndex lists disagree on the page count: null_pages " + pages + ", min_values "
          + mins.size() + ", max_values " + maxs.size() + (nullCounts == null ? "" : ", null_counts " + nullCounts.length)
          + (nanCounts == null ? "" : ", nan_counts " + nanCounts.length));
    }
    return new ColumnIndex(nullPages, mins, maxs, boundaryOrder, nullCounts, repHistograms, defHistograms, nanCounts);
  }

  public static OffsetIndex readOffsetIndex(String file, byte[] bytes, int offset, int length)
      throws ParquetCorruptionException {
    ThriftCursor r = new ThriftCursor(file, "offset index", bytes, offset, length,
        FooterOptions.DEFAULT_MAX_STRING_LENGTH);
    long[] offsets = null;
    int[] sizes = null;
    long[] firstRows = null;
    long[] unencoded = null;
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (1 << 4 | LIST)) {
        int n = r.readList("OffsetIndex.page_locations", STRUCT);
        offsets = new long[n];
        sizes = new int[n];
        firstRows = new long[n];
        for (int i = 0; i < n; i++) {
          pageLocation(r, i, offsets, sizes, firstRows);
        }
        f = r.readField(1);
      }
      if (f == (2 << 4 | LIST)) {
        unencoded = longs(r, "OffsetIndex.unencoded_byte_array_data_bytes");
        f = r.readField(2);
      }
      f = r.position() == at ? r.skipField(f) : f;
    }
    r.require(offsets != null, "OffsetIndex.page_locations");
    if (unencoded != null && unencoded.length != offsets.length) {
      throw r.corrupt("OffsetIndex.unencoded_byte_array_data_bytes has " + unencoded.length + " entries for "
          + offsets.length + " pages");
    }
    return new OffsetIndex(offsets, sizes, firstRows, unencoded);
  }

  private static void pageLocation(ThriftCursor r, int i, long[] offsets, int[] sizes, long[] firstRows)
      throws ParquetCorruptionException {
    int seen = 0;
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (1 << 4 | I64)) {
        offsets[i] = r.readI64();
        seen |= 1;
        f = r.readField(1);
      }
      if (f == (2 << 4 | I32)) {
        sizes[i] = r.readI32();
        seen |= 2;
        f = r.readField(2);
      }
      if (f == (3 << 4 | I64)) {
        firstRows[i] = r.readI64();
        seen |= 4;
        f = r.readField(3);
      }
      f = r.position() == at ? r.skipField(f) : f;
    }
    r.require((seen & 1) != 0, "PageLocation.offset");
    r.require((seen & 2) != 0, "PageLocation.compressed_page_size");
    r.require((seen & 4) != 0, "PageLocation.first_row_index");
    r.nonNegative(offsets[i], "PageLocation.offset");
    r.nonNegative(sizes[i], "PageLocation.compressed_page_size");
    r.nonNegative(firstRows[i], "PageLocation.first_row_index");
  }

  private static boolean[] bools(ThriftCursor r, String name) throws ParquetCorruptionException {
    int n = r.readList(name, BOOLEAN_TRUE);
    boolean[] out = new boolean[n];
    for (int i = 0; i < n; i++) {
      out[i] = r.readListBool();
    }
    return out;
  }

  private static List<byte[]> binaries(ThriftCursor r, String name) throws ParquetCorruptionException {
    int n = r.readList(name, BINARY);
    List<byte[]> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(r.readBinary(name));
    }
    return out;
  }

  private static long[] longs(ThriftCursor r, String name) throws ParquetCorruptionException {
    int n = r.readList(name, I64);
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = r.readI64();
    }
    return out;
  }
}
