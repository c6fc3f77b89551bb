package io.turboparquet.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Type;
import org.apache.parquet.format.Util;

/**
 * Small files that claim enormous work ("bombs"), written byte by byte from parquet-format's
 * Thrift structs: one row group, one column {@code v}, uncompressed V1 pages. Each is valid
 * Parquet: every claim agrees with every other, so only the amount of work it stands for is
 * hostile.
 *
 * <ul>
 *   <li>{@link #dictionaryBomb}: a dictionary of one long string and data pages whose indices are
 *   one RLE run of bit width 0 (two bytes of page body for any number of values): {@code pages x
 *   values x entryBytes} bytes of strings from a file of {@code entryBytes} plus a few bytes.
 *   <li>{@link #levelBomb}: an optional INT64 column whose pages are one RLE run of definition
 *   level 1 and one bit-width-0 run of dictionary index 0: each page a few bytes, {@code values}
 *   entries of levels and 8 bytes of value each.
 * </ul>
 */
public final class BombFiles {
  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

  private BombFiles() {
  }

  /**
   * A required BYTE_ARRAY column: a dictionary of one entry of {@code entryBytes} 'x's, then
   * {@code pages} data pages of {@code values} values each, every index 0.
   */
  public static Path dictionaryBomb(Path dir, int entryBytes, int values, int pages) {
    byte[] entry = new byte[4 + entryBytes];
    ByteBuffer.wrap(entry).order(ByteOrder.LITTLE_ENDIAN).putInt(entryBytes);
    Arrays.fill(entry, 4, entry.length, (byte) 'x');
    byte[] indices = indexRun(values);
    return write(dir.resolve("dictionary_bomb.parquet"), Type.BYTE_ARRAY, FieldRepetitionType.REQUIRED, entry,
        indices, values, pages);
  }

  /**
   * An optional INT64 column: a dictionary of one value, then {@code pages} data pages of
   * {@code values} entries each, every entry defined (one RLE run of level 1) and index 0.
   */
  public static Path levelBomb(Path dir, int values, int pages) {
    byte[] entry = new byte[8];
    entry[0] = 42;
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    byte[] levels = run(values, 1); // bit width 1: one value byte
    byte[] length = new byte[4];
    ByteBuffer.wrap(length).order(ByteOrder.LITTLE_ENDIAN).putInt(levels.length);
    body.writeBytes(length);
    body.writeBytes(levels);
    body.writeBytes(indexRun(values));
    return write(dir.resolve("level_bomb.parquet"), Type.INT64, FieldRepetitionType.OPTIONAL, entry,
        body.toByteArray(), values, pages);
  }

  /** Dictionary indices of bit width 0: one RLE run of {@code n} zeros (no value bytes). */
  private static byte[] indexRun(int n) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0); // bit width
    varint(out, (long) n << 1);
    return out.toByteArray();
  }

  /** An RLE run of {@code n} times {@code value}, bit width up to 8. */
  private static byte[] run(int n, int value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    varint(out, (long) n << 1);
    out.write(value);
    return out.toByteArray();
  }

  private static void varint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) (v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.write((int) v);
  }

  private static Path write(Path file, Type type, FieldRepetitionType repetition, byte[] dictionary, byte[] body,
      int values, int pages) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(MAGIC);
    long dictionaryOffset = out.size();
    PageHeader dict = new PageHeader(PageType.DICTIONARY_PAGE, dictionary.length, dictionary.length);
    dict.setDictionary_page_header(new DictionaryPageHeader(1, Encoding.PLAIN));
    out.writeBytes(CorruptFiles.encode(dict));
    out.writeBytes(dictionary);
    long dataOffset = out.size();
    for (int p = 0; p < pages; p++) {
      PageHeader data = new PageHeader(PageType.DATA_PAGE, body.length, body.length);
      data.setData_page_header(new DataPageHeader(values, Encoding.RLE_DICTIONARY, Encoding.RLE, Encoding.RLE));
      out.writeBytes(CorruptFiles.encode(data));
      out.writeBytes(body);
    }
    long chunkBytes = out.size() - dictionaryOffset;
    long rows = (long) values * pages;
    ColumnMetaData meta = new ColumnMetaData(type, List.of(Encoding.PLAIN, Encoding.RLE, Encoding.RLE_DICTIONARY),
        List.of("v"), CompressionCodec.UNCOMPRESSED, rows, chunkBytes, chunkBytes, dataOffset);
    meta.setDictionary_page_offset(dictionaryOffset);
    ColumnChunk chunk = new ColumnChunk(dictionaryOffset);
    chunk.setMeta_data(meta);
    RowGroup group = new RowGroup(new ArrayList<>(List.of(chunk)), chunkBytes, rows);
    group.setFile_offset(dictionaryOffset);
    group.setTotal_compressed_size(chunkBytes);
    SchemaElement root = new SchemaElement("bomb");
    root.setNum_children(1);
    SchemaElement v = new SchemaElement("v");
    v.setType(type);
    v.setRepetition_type(repetition);
    FileMetaData footer = new FileMetaData(1, new ArrayList<>(List.of(root, v)), rows,
        new ArrayList<>(List.of(group)));
    footer.setCreated_by("turbo-parquet BombFiles");
    ByteArrayOutputStream f = new ByteArrayOutputStream();
    try {
      Util.writeFileMetaData(footer, f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.writeBytes(f.toByteArray());
    byte[] length = new byte[4];
    ByteBuffer.wrap(length).order(ByteOrder.LITTLE_ENDIAN).putInt(f.size());
    out.writeBytes(length);
    out.writeBytes(MAGIC);
    try {
      Files.createDirectories(dir(file));
      return Files.write(file, out.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path dir(Path file) {
    return file.toAbsolutePath().getParent();
  }
}
