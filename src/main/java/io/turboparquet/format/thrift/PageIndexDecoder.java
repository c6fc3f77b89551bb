package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.BINARY;
import static io.turboparquet.format.thrift.ThriftCursor.BOOLEAN_TRUE;
import static io.turboparquet.format.thrift.ThriftCursor.I32;
import static io.turboparquet.format.thrift.ThriftCursor.I64;
import static io.turboparquet.format.thrift.ThriftCursor.LIST;
import static io.turboparquet.format.thrift.ThriftCursor.STRUCT;
import static io.turboparquet.format.thrift.ThriftCursor.fieldId;
import static io.turboparquet.format.thrift.ThriftCursor.fieldType;

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
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      switch (last) {
        case 1 -> nullPages = r.is(f, LIST) ? bools(r, "ColumnIndex.null_pages") : nullPages;
        case 2 -> mins = r.is(f, LIST) ? binaries(r, "ColumnIndex.min_values") : mins;
        case 3 -> maxs = r.is(f, LIST) ? binaries(r, "ColumnIndex.max_values") : maxs;
        case 4 -> boundaryOrder = r.is(f, I32) ? r.readI32() : boundaryOrder;
        case 5 -> nullCounts = r.is(f, LIST) ? longs(r, "ColumnIndex.null_counts") : nullCounts;
        case 6 -> repHistograms = r.is(f, LIST) ? longs(r, "ColumnIndex.repetition_level_histograms") : repHistograms;
        case 7 -> defHistograms = r.is(f, LIST) ? longs(r, "ColumnIndex.definition_level_histograms") : defHistograms;
        default -> r.skip(fieldType(f));
      }
    }
    r.require(nullPages != null, "ColumnIndex.null_pages");
    r.require(mins != null, "ColumnIndex.min_values");
    r.require(maxs != null, "ColumnIndex.max_values");
    r.require(boundaryOrder != -1, "ColumnIndex.boundary_order");
    int pages = nullPages.length;
    if (mins.size() != pages || maxs.size() != pages || nullCounts != null && nullCounts.length != pages) {
      throw r.corrupt("ColumnIndex lists disagree on the page count: null_pages " + pages + ", min_values "
          + mins.size() + ", max_values " + maxs.size() + (nullCounts == null ? "" : ", null_counts " + nullCounts.length));
    }
    return new ColumnIndex(nullPages, mins, maxs, boundaryOrder, nullCounts, repHistograms, defHistograms);
  }

  public static OffsetIndex readOffsetIndex(String file, byte[] bytes, int offset, int length)
      throws ParquetCorruptionException {
    ThriftCursor r = new ThriftCursor(file, "offset index", bytes, offset, length,
        FooterOptions.DEFAULT_MAX_STRING_LENGTH);
    long[] offsets = null;
    int[] sizes = null;
    long[] firstRows = null;
    long[] unencoded = null;
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      switch (last) {
        case 1 -> {
          if (r.is(f, LIST)) {
            int n = r.readList("OffsetIndex.page_locations", STRUCT);
            offsets = new long[n];
            sizes = new int[n];
            firstRows = new long[n];
            for (int i = 0; i < n; i++) {
              pageLocation(r, i, offsets, sizes, firstRows);
            }
          }
        }
        case 2 -> unencoded = r.is(f, LIST) ? longs(r, "OffsetIndex.unencoded_byte_array_data_bytes") : unencoded;
        default -> r.skip(fieldType(f));
      }
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
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      switch (last) {
        case 1 -> {
          if (r.is(f, I64)) {
            offsets[i] = r.readI64();
            seen |= 1;
          }
        }
        case 2 -> {
          if (r.is(f, I32)) {
            sizes[i] = r.readI32();
            seen |= 2;
          }
        }
        case 3 -> {
          if (r.is(f, I64)) {
            firstRows[i] = r.readI64();
            seen |= 4;
          }
        }
        default -> r.skip(fieldType(f));
      }
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
