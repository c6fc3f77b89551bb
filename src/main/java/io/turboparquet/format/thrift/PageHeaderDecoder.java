package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.I32;
import static io.turboparquet.format.thrift.ThriftCursor.STRUCT;
import static io.turboparquet.format.thrift.ThriftCursor.boolField;
import static io.turboparquet.format.thrift.ThriftCursor.fieldId;
import static io.turboparquet.format.thrift.ThriftCursor.isBool;

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

  /**
   * Decodes the page header that is all of {@code bytes} (a decrypted header module), for the page
   * at file offset {@code offset}.
   */
  public PageHeaderInfo decode(byte[] bytes, long offset, String where) throws ParquetCorruptionException {
    r.reset(bytes, bytes.length, where, "page header", offset);
    return decode();
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
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (1 << 4 | I32)) {
        type = r.readI32();
        f = r.readField(1);
      }
      if (f == (2 << 4 | I32)) {
        uncompressedSize = r.readI32();
        f = r.readField(2);
      }
      if (f == (3 << 4 | I32)) {
        compressedSize = r.readI32();
        f = r.readField(3);
      }
      if (f == (4 << 4 | I32)) {
        crc = r.readI32();
        hasCrc = true;
        f = r.readField(4);
      }
      // Only the header that matches the page type counts; the type may come later.
      if (f == (5 << 4 | STRUCT)) {
        dataOrDictionaryPageHeader("DataPageHeader");
        nested |= 1 << 5;
        f = r.readField(5);
      }
      if (f == (7 << 4 | STRUCT)) {
        dataOrDictionaryPageHeader("DictionaryPageHeader");
        nested |= 1 << 7;
        f = r.readField(7);
      }
      if (f == (8 << 4 | STRUCT)) {
        dataPageHeaderV2();
        nested |= 1 << 8;
        f = r.readField(8);
      }
      f = r.position() == at ? r.skipField(f) : f;
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

  /**
   * Field 5, DataPageHeader, or 7, DictionaryPageHeader, into the scratch fields: both start with
   * num_values and encoding; the data page's statistics and the dictionary's is_sorted (a bool,
   * where the data page has an i32) are skipped.
   */
  private void dataOrDictionaryPageHeader(String name) throws ParquetCorruptionException {
    boolean hasNumValues = false;
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (1 << 4 | I32)) {
        numValues = r.readI32();
        hasNumValues = true;
        f = r.readField(1);
      }
      if (f == (2 << 4 | I32)) {
        encoding = r.readI32();
        f = r.readField(2);
      }
      if (f == (3 << 4 | I32)) {
        defEncoding = r.readI32();
        f = r.readField(3);
      }
      if (f == (4 << 4 | I32)) {
        repEncoding = r.readI32();
        f = r.readField(4);
      }
      f = r.position() == at ? r.skipField(f) : f;
    }
    r.require(hasNumValues, name + ".num_values");
  }

  /** Field 8, DataPageHeaderV2, into the scratch fields; its statistics are skipped. */
  private void dataPageHeaderV2() throws ParquetCorruptionException {
    int seen = 0; // bit per required field but encoding, in id order
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (1 << 4 | I32)) {
        numValues = r.readI32();
        seen |= 1;
        f = r.readField(1);
      }
      if (f == (2 << 4 | I32)) {
        numNulls = r.readI32();
        seen |= 2;
        f = r.readField(2);
      }
      if (f == (3 << 4 | I32)) {
        numRows = r.readI32();
        seen |= 4;
        f = r.readField(3);
      }
      if (f == (4 << 4 | I32)) {
        encoding = r.readI32(); // required where the page is a V2 data page, checked there
        f = r.readField(4);
      }
      if (f == (5 << 4 | I32)) {
        defLength = r.readI32();
        seen |= 8;
        f = r.readField(5);
      }
      if (f == (6 << 4 | I32)) {
        repLength = r.readI32();
        seen |= 16;
        f = r.readField(6);
      }
      if (fieldId(f) == 7 && isBool(f)) {
        compressed = boolField(f);
        f = r.readField(7);
      }
      f = r.position() == at ? r.skipField(f) : f;
    }
    if (seen != 31) {
      String[] names = {"num_values", "num_nulls", "num_rows", "definition_levels_byte_length",
          "repetition_levels_byte_length"};
      throw r.corrupt("required field DataPageHeaderV2." + names[Integer.numberOfTrailingZeros(~seen)]
          + " is missing");
    }
  }
}
