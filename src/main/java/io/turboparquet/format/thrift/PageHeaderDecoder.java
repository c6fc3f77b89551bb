package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.BOOLEAN_TRUE;
import static io.turboparquet.format.thrift.ThriftCursor.I32;
import static io.turboparquet.format.thrift.ThriftCursor.STRUCT;
import static io.turboparquet.format.thrift.ThriftCursor.boolField;
import static io.turboparquet.format.thrift.ThriftCursor.fieldId;
import static io.turboparquet.format.thrift.ThriftCursor.fieldType;

import io.turboparquet.format.Encoding;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageType;
import io.turboparquet.format.ParquetCorruptionException;
import java.io.IOException;
import java.io.InputStream;

/**
 * PageHeader with its DataPageHeader, DataPageHeaderV2 and DictionaryPageHeader, read from a
 * stream without reading past the header. One instance per column reader: a header costs the
 * {@link PageHeaderInfo} and nothing else (page statistics are skipped).
 */
public final class PageHeaderDecoder {
  private static final int UNSET = Integer.MIN_VALUE;

  private static final int FIRST_WINDOW = 256;
  /** No page header legitimately comes near this; it bounds what a hostile one can make us read. */
  private static final int MAX_HEADER_BYTES = 16 << 20;

  private final ThriftCursor r;
  private byte[] window = new byte[FIRST_WINDOW];

  // Scratch: the page header being decoded.
  private int numValues;
  private int encoding;
  private int defEncoding;
  private int repEncoding;
  private int numNulls;
  private int numRows;
  private int defLength;
  private int repLength;
  private boolean compressed;

  public PageHeaderDecoder(String file) {
    // Page headers have no strings we keep: a skipped one is bounded by the bytes read, not a limit.
    this.r = new ThriftCursor(file, "page header", window, 0, 0, Integer.MAX_VALUE);
  }

  /**
   * Reads one page header from {@code in} (which must support mark and reset), whose next byte is
   * at file offset {@code offset}, and leaves {@code in} at the page body; {@code where} names the
   * row group and column in errors.
   *
   * <p>A header's length is known only once it is decoded, so the bytes ahead are peeked (one read
   * of up to {@value #FIRST_WINDOW} bytes, what the stream has at hand) and decoded from an array;
   * a header longer than that (long page statistics) is peeked again in a window 8 times larger,
   * up to {@value #MAX_HEADER_BYTES} bytes.
   */
  public PageHeaderInfo read(InputStream in, long offset, String where) throws IOException {
    if (!in.markSupported()) {
      throw new IllegalArgumentException("page headers are peeked: the stream must support mark and reset");
    }
    for (int want = FIRST_WINDOW; ; want = Math.min(want * 8, MAX_HEADER_BYTES)) {
      if (window.length < want) {
        window = new byte[want];
      }
      in.mark(want);
      // The first read takes what the stream has at hand; a retry reads the whole window.
      int n = Math.max(0, want == FIRST_WINDOW ? in.read(window, 0, want) : in.readNBytes(window, 0, want));
      in.reset();
      r.reset(window, n, where, "page header", offset);
      try {
        PageHeaderInfo header = decode();
        in.skipNBytes(header.headerLength());
        return header;
      } catch (ParquetCorruptionException e) {
        boolean ended = want > FIRST_WINDOW && n < want;
        if (!r.ranOut() || ended) {
          throw e;
        }
        if (want >= MAX_HEADER_BYTES) {
          throw r.corrupt("the page header is longer than " + MAX_HEADER_BYTES + " bytes");
        }
      } finally {
        if (window.length > FIRST_WINDOW * 64) {
          window = new byte[FIRST_WINDOW]; // do not keep a hostile header's window
        }
      }
    }
  }

  private PageHeaderInfo decode() throws ParquetCorruptionException {
    int type = UNSET;
    int uncompressedSize = UNSET;
    int compressedSize = UNSET;
    boolean hasCrc = false;
    int crc = 0;
    int nested = 0; // which of fields 5, 7, 8 (data, dictionary, data v2 header) was read
    numValues = 0;
    encoding = UNSET;
    defEncoding = UNSET;
    repEncoding = UNSET;
    numNulls = 0;
    numRows = 0;
    defLength = 0;
    repLength = 0;
    compressed = true;
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      switch (last) {
        case 1 -> type = r.is(f, I32) ? r.readI32() : type;
        case 2 -> uncompressedSize = r.is(f, I32) ? r.readI32() : uncompressedSize;
        case 3 -> compressedSize = r.is(f, I32) ? r.readI32() : compressedSize;
        case 4 -> {
          if (r.is(f, I32)) {
            crc = r.readI32();
            hasCrc = true;
          }
        }
        case 5, 7, 8 -> {
          // Only the header that matches the page type counts; the type may come later.
          if (r.is(f, STRUCT)) {
            nestedHeader(last);
            nested |= 1 << last;
          }
        }
        default -> r.skip(fieldType(f));
      }
    }
    r.require(type != UNSET, "PageHeader.type");
    r.require(uncompressedSize != UNSET, "PageHeader.uncompressed_page_size");
    r.require(compressedSize != UNSET, "PageHeader.compressed_page_size");
    r.nonNegative(compressedSize, "PageHeader.compressed_page_size");
    r.nonNegative(uncompressedSize, "PageHeader.uncompressed_page_size");
    PageType pageType = PageType.fromThriftId(type);
    Encoding values = null;
    Encoding def = null;
    Encoding rep = null;
    switch (pageType) {
      case DATA_PAGE -> {
        if ((nested & 1 << 5) == 0) {
          throw r.corrupt("data page without data_page_header");
        }
        values = encoding("DataPageHeader.encoding", encoding);
        def = encoding("DataPageHeader.definition_level_encoding", defEncoding);
        rep = encoding("DataPageHeader.repetition_level_encoding", repEncoding);
      }
      case DATA_PAGE_V2 -> {
        if ((nested & 1 << 8) == 0) {
          throw r.corrupt("V2 data page without data_page_header_v2");
        }
        values = encoding("DataPageHeaderV2.encoding", encoding);
        r.nonNegative(defLength, "DataPageHeaderV2.definition_levels_byte_length");
        r.nonNegative(repLength, "DataPageHeaderV2.repetition_levels_byte_length");
        r.nonNegative(numNulls, "DataPageHeaderV2.num_nulls");
        r.nonNegative(numRows, "DataPageHeaderV2.num_rows");
        if ((long) defLength + repLength > compressedSize || (long) defLength + repLength > uncompressedSize) {
          throw r.corrupt("V2 page levels (" + repLength + " + " + defLength + " bytes) do not fit in the page ("
              + compressedSize + " bytes)");
        }
      }
      case DICTIONARY_PAGE -> {
        if ((nested & 1 << 7) == 0) {
          throw r.corrupt("dictionary page without dictionary_page_header");
        }
        values = encoding("DictionaryPageHeader.encoding", encoding);
      }
      default -> {
        // index pages and page types from the future carry nothing the reader uses
        numValues = 0;
        numNulls = 0;
        numRows = 0;
        defLength = 0;
        repLength = 0;
        compressed = true;
      }
    }
    r.nonNegative(numValues, "page num_values");
    if (pageType != PageType.DATA_PAGE_V2) {
      numNulls = 0;
      numRows = 0;
      defLength = 0;
      repLength = 0;
      compressed = true;
    }
    return new PageHeaderInfo(pageType, r.position(), uncompressedSize, compressedSize, hasCrc, crc,
        numValues, values, def, rep, numNulls, numRows, defLength, repLength, compressed);
  }

  private Encoding encoding(String field, int id) throws ParquetCorruptionException {
    if (id == UNSET) {
      throw r.corrupt("required field " + field + " is missing");
    }
    Encoding e = ThriftEnums.encoding(id);
    if (e == null) {
      throw r.corrupt(field + ": unknown encoding id " + id);
    }
    return e;
  }

  /** Field 5 DataPageHeader, 7 DictionaryPageHeader or 8 DataPageHeaderV2 into the scratch fields. */
  private void nestedHeader(int which) throws ParquetCorruptionException {
    boolean hasNumValues = false;
    int required = 0;
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      int slot = which * 16 + last;
      switch (slot) {
        case 5 * 16 + 1, 7 * 16 + 1, 8 * 16 + 1 -> {
          if (r.is(f, I32)) {
            numValues = r.readI32();
            hasNumValues = true;
          }
        }
        case 5 * 16 + 2, 7 * 16 + 2 -> encoding = r.is(f, I32) ? r.readI32() : encoding;
        case 5 * 16 + 3 -> defEncoding = r.is(f, I32) ? r.readI32() : defEncoding;
        case 5 * 16 + 4 -> repEncoding = r.is(f, I32) ? r.readI32() : repEncoding;
        case 8 * 16 + 2 -> {
          if (r.is(f, I32)) {
            numNulls = r.readI32();
            required |= 1;
          }
        }
        case 8 * 16 + 3 -> {
          if (r.is(f, I32)) {
            numRows = r.readI32();
            required |= 2;
          }
        }
        case 8 * 16 + 4 -> encoding = r.is(f, I32) ? r.readI32() : encoding;
        case 8 * 16 + 5 -> {
          if (r.is(f, I32)) {
            defLength = r.readI32();
            required |= 4;
          }
        }
        case 8 * 16 + 6 -> {
          if (r.is(f, I32)) {
            repLength = r.readI32();
            required |= 8;
          }
        }
        case 8 * 16 + 7 -> compressed = r.is(f, BOOLEAN_TRUE) ? boolField(f) : compressed;
        default -> r.skip(fieldType(f)); // statistics, is_sorted, fields from the future
      }
    }
    String name = which == 5 ? "DataPageHeader" : which == 7 ? "DictionaryPageHeader" : "DataPageHeaderV2";
    if (!hasNumValues) {
      throw r.corrupt("required field " + name + ".num_values is missing");
    }
    if (which == 8 && required != 15) {
      String[] names = {"num_nulls", "num_rows", "definition_levels_byte_length", "repetition_levels_byte_length"};
      throw r.corrupt("required field DataPageHeaderV2." + names[Integer.numberOfTrailingZeros(~required)]
          + " is missing");
    }
  }
}
