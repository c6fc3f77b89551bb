package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.CompactReader.BOOLEAN_TRUE;
import static io.turboparquet.format.thrift.CompactReader.I32;
import static io.turboparquet.format.thrift.CompactReader.STRUCT;
import static io.turboparquet.format.thrift.CompactReader.boolField;
import static io.turboparquet.format.thrift.CompactReader.fieldId;
import static io.turboparquet.format.thrift.CompactReader.fieldType;

import io.turboparquet.format.Encoding;
import io.turboparquet.format.PageHeaderInfo;
import io.turboparquet.format.PageType;
import io.turboparquet.format.ParquetCorruptionException;
import java.io.InputStream;

/**
 * PageHeader with its DataPageHeader, DataPageHeaderV2 and DictionaryPageHeader, read from a
 * stream without reading past the header. One instance per column reader: a header costs the
 * {@link PageHeaderInfo} and nothing else (page statistics are skipped).
 */
public final class PageHeaderDecoder {
  private static final int UNSET = Integer.MIN_VALUE;

  private final StreamCompactReader r;

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
    // Page headers have no strings we keep; the stream reader bounds skipped ones itself.
    this.r = new StreamCompactReader(file, Integer.MAX_VALUE);
  }

  /**
   * Reads one page header from {@code in}, whose next byte is at file offset {@code offset};
   * {@code where} names the row group and column in errors.
   */
  public PageHeaderInfo read(InputStream in, long offset, String where) throws ParquetCorruptionException {
    r.reset(in, where, "page header", offset);
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
    return new PageHeaderInfo(pageType, (int) r.consumed(), uncompressedSize, compressedSize, hasCrc, crc,
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
