package io.turboparquet.format;

import java.io.IOException;
import java.io.InputStream;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;

/** Decodes a Thrift page header and checks the sizes the reader will trust. */
public final class PageHeaders {
  private PageHeaders() {}

  /**
   * Reads one page header from {@code in}, which {@code position} tracks, so the header's file
   * offset and length are known; {@code where} names the row group and column in errors.
   */
  public static PageHeaderInfo read(InputStream in, CountingPosition position, String file, String where)
      throws IOException {
    long start = position.position();
    PageHeader h;
    try {
      h = Util.readPageHeader(in);
    } catch (IOException | RuntimeException e) {
      throw new ParquetCorruptionException(file, where + ": cannot decode the page header at offset " + start
          + ": " + e.getMessage(), e);
    }
    int headerLength = (int) (position.position() - start);
    ParquetCorruptionException.validate(h.getCompressed_page_size() >= 0, file,
        "%s: PageHeader.compressed_page_size is negative at offset %d", where, start);
    ParquetCorruptionException.validate(h.getUncompressed_page_size() >= 0, file,
        "%s: PageHeader.uncompressed_page_size is negative at offset %d", where, start);
    PageType type = PageType.fromThriftId(h.getType().getValue());
    int numValues = 0;
    Encoding encoding = null;
    Encoding defEncoding = null;
    Encoding repEncoding = null;
    int numNulls = 0;
    int numRows = 0;
    int defLength = 0;
    int repLength = 0;
    boolean compressed = true;
    try {
      switch (type) {
        case DATA_PAGE -> {
          DataPageHeader d = h.getData_page_header();
          ParquetCorruptionException.validate(d != null, file, "%s: data page without data_page_header at offset %d",
              where, start);
          numValues = d.getNum_values();
          encoding = Encoding.fromThriftId(d.getEncoding().getValue());
          defEncoding = Encoding.fromThriftId(d.getDefinition_level_encoding().getValue());
          repEncoding = Encoding.fromThriftId(d.getRepetition_level_encoding().getValue());
        }
        case DATA_PAGE_V2 -> {
          DataPageHeaderV2 d = h.getData_page_header_v2();
          ParquetCorruptionException.validate(d != null, file,
              "%s: V2 data page without data_page_header_v2 at offset %d", where, start);
          numValues = d.getNum_values();
          numNulls = d.getNum_nulls();
          numRows = d.getNum_rows();
          encoding = Encoding.fromThriftId(d.getEncoding().getValue());
          defLength = d.getDefinition_levels_byte_length();
          repLength = d.getRepetition_levels_byte_length();
          compressed = !d.isSetIs_compressed() || d.isIs_compressed();
          ParquetCorruptionException.validate(defLength >= 0 && repLength >= 0
                  && (long) defLength + repLength <= h.getCompressed_page_size()
                  && (long) defLength + repLength <= h.getUncompressed_page_size(), file,
              "%s: V2 page levels (%d + %d bytes) do not fit in the page (%d bytes) at offset %d", where, repLength,
              defLength, h.getCompressed_page_size(), start);
          ParquetCorruptionException.validate(numNulls >= 0 && numRows >= 0, file,
              "%s: DataPageHeaderV2.num_nulls or num_rows is negative at offset %d", where, start);
        }
        case DICTIONARY_PAGE -> {
          DictionaryPageHeader d = h.getDictionary_page_header();
          ParquetCorruptionException.validate(d != null, file,
              "%s: dictionary page without dictionary_page_header at offset %d", where, start);
          numValues = d.getNum_values();
          encoding = Encoding.fromThriftId(d.getEncoding().getValue());
        }
        default -> { }
      }
    } catch (IllegalArgumentException e) {
      throw new ParquetCorruptionException(file, where + ": " + e.getMessage() + " in the page header at offset "
          + start);
    }
    ParquetCorruptionException.validate(numValues >= 0, file, "%s: page num_values is negative at offset %d", where,
        start);
    return new PageHeaderInfo(type, headerLength, h.getUncompressed_page_size(), h.getCompressed_page_size(),
        h.isSetCrc(), h.getCrc(), numValues, encoding, defEncoding, repEncoding, numNulls, numRows, defLength,
        repLength, compressed);
  }

  /** Something that knows the file offset of the next byte it will read. */
  public interface CountingPosition {
    long position();
  }
}
