package io.turboparquet.testing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.Consumer;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

/**
 * Edits a whole Parquet file held in memory through parquet-format's Thrift structs: read the footer,
 * change it, write the file again; or replace a byte range and move every footer offset behind it,
 * so that the file stays consistent everywhere except where a test breaks it on purpose.
 */
public final class FooterRewrite {
  private static final byte[] MAGIC = {'P', 'A', 'R', '1'};

  private FooterRewrite() {
  }

  /** Where the footer's Thrift bytes start. */
  public static int footerStart(byte[] file) {
    return file.length - 8 - footerLength(file);
  }

  public static int footerLength(byte[] file) {
    return ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
  }

  public static FileMetaData footer(byte[] file) {
    try {
      return Util.readFileMetaData(new ByteArrayInputStream(file, footerStart(file), footerLength(file)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The file's pages followed by {@code footer} (re-encoded), its length and the magic. */
  public static byte[] withFooter(byte[] file, FileMetaData footer) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      Util.writeFileMetaData(footer, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return withFooterBytes(file, out.toByteArray());
  }

  /** The file's pages followed by {@code footer} taken as the raw footer bytes. */
  public static byte[] withFooterBytes(byte[] file, byte[] footer) {
    int start = footerStart(file);
    byte[] out = Arrays.copyOf(file, start + footer.length + 8);
    System.arraycopy(footer, 0, out, start, footer.length);
    ByteBuffer.wrap(out, start + footer.length, 4).order(ByteOrder.LITTLE_ENDIAN).putInt(footer.length);
    System.arraycopy(MAGIC, 0, out, out.length - 4, 4);
    return out;
  }

  /** The footer changed by {@code edit}, re-encoded. */
  public static byte[] editFooter(byte[] file, Consumer<FileMetaData> edit) {
    FileMetaData f = footer(file);
    edit.accept(f);
    return withFooter(file, f);
  }

  /**
   * Replaces {@code length} bytes at {@code at} (inside a column chunk's pages) with {@code with}. The
   * footer follows: offsets behind {@code at} move by the difference, the chunk holding {@code at}
   * and its row group grow by it, and the page indexes (which hold page offsets) are dropped.
   */
  public static byte[] splice(byte[] file, long at, int length, byte[] with) {
    FileMetaData footer = footer(file);
    int delta = with.length - length;
    for (RowGroup g : footer.getRow_groups()) {
      for (ColumnChunk c : g.getColumns()) {
        ColumnMetaData m = c.getMeta_data();
        long start = m.isSetDictionary_page_offset() && m.getDictionary_page_offset() > 0
            ? Math.min(m.getDictionary_page_offset(), m.getData_page_offset()) : m.getData_page_offset();
        if (start <= at && at < start + m.getTotal_compressed_size()) {
          m.setTotal_compressed_size(m.getTotal_compressed_size() + delta);
          m.setTotal_uncompressed_size(m.getTotal_uncompressed_size() + delta);
          g.setTotal_byte_size(g.getTotal_byte_size() + delta);
          if (g.isSetTotal_compressed_size()) {
            g.setTotal_compressed_size(g.getTotal_compressed_size() + delta);
          }
        }
        if (m.getData_page_offset() > at) {
          m.setData_page_offset(m.getData_page_offset() + delta);
        }
        if (m.isSetDictionary_page_offset() && m.getDictionary_page_offset() > at) {
          m.setDictionary_page_offset(m.getDictionary_page_offset() + delta);
        }
        if (c.getFile_offset() > at) {
          c.setFile_offset(c.getFile_offset() + delta);
        }
        c.unsetColumn_index_offset();
        c.unsetColumn_index_length();
        c.unsetOffset_index_offset();
        c.unsetOffset_index_length();
        m.unsetBloom_filter_offset();
        m.unsetBloom_filter_length();
      }
      if (g.isSetFile_offset() && g.getFile_offset() > at) {
        g.setFile_offset(g.getFile_offset() + delta);
      }
    }
    int end = footerStart(file);
    byte[] pages = new byte[end + delta];
    System.arraycopy(file, 0, pages, 0, (int) at);
    System.arraycopy(with, 0, pages, (int) at, with.length);
    System.arraycopy(file, (int) at + length, pages, (int) at + with.length, end - (int) at - length);
    byte[] shell = Arrays.copyOf(pages, pages.length + 8); // withFooter keeps everything before the old footer
    ByteBuffer.wrap(shell, pages.length, 4).order(ByteOrder.LITTLE_ENDIAN).putInt(0);
    return withFooter(shell, footer);
  }
}
