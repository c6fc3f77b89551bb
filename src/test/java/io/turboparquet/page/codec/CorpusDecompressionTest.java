package io.turboparquet.page.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.lz4.Lz4HadoopStreams;
import io.netty.buffer.ByteBuf;
import io.turboparquet.format.CompressionCodec;
import io.turboparquet.io.TrackingBufferSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

/**
 * Every compressed page of every file in the parquet-testing corpus (written by parquet-mr,
 * parquet-cpp/Arrow, Impala, ...) decompresses, straight out of a direct buffer holding the whole
 * file, to exactly what an independent reference decoder produces. The page walking here is the
 * bare minimum for the test (thrift footer and page headers via parquet-format-structures).
 */
class CorpusDecompressionTest {
  @Test
  void everyCorpusPageMatchesTheReferenceDecoder() throws Exception {
    Path dir = Path.of(System.getProperty("turbo.parquet.testing", "../shared/data/parquet-testing"));
    assertTrue(Files.isDirectory(dir), "parquet-testing corpus missing at " + dir.toAbsolutePath());
    List<Path> files;
    try (Stream<Path> list = Files.list(dir)) {
      files = list.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
    }
    Map<CompressionCodec, Integer> pages = new EnumMap<>(CompressionCodec.class);
    Map<CompressionCodec, Decompressor> decompressors = new EnumMap<>(CompressionCodec.class);
    TrackingBufferSource source = new TrackingBufferSource();
    List<String> unreadable = new ArrayList<>();
    for (Path file : files) {
      byte[] bytes = Files.readAllBytes(file);
      FileMetaData footer;
      try {
        footer = footer(bytes);
      } catch (IOException | RuntimeException e) {
        unreadable.add(file.getFileName() + ": " + e); // not a parquet file we can walk: not our concern here
        continue;
      }
      ByteBuf whole = source.buffer(bytes.length);
      try {
        whole.setBytes(0, bytes);
        for (RowGroup rowGroup : footer.getRow_groups()) {
          for (ColumnChunk chunk : rowGroup.getColumns()) {
            ColumnMetaData meta = chunk.getMeta_data();
            CompressionCodec codec = CompressionCodec.fromThriftId(meta.getCodec().getValue());
            Decompressor d = decompressors.computeIfAbsent(codec, Decompressors::create);
            long start = meta.getData_page_offset();
            if (meta.isSetDictionary_page_offset() && meta.getDictionary_page_offset() > 0
                && meta.getDictionary_page_offset() < start) {
              start = meta.getDictionary_page_offset();
            }
            long end = start + meta.getTotal_compressed_size();
            ByteArrayInputStream in = new ByteArrayInputStream(bytes, (int) start, (int) (end - start));
            while (in.available() > 0) {
              PageHeader header = Util.readPageHeader(in);
              int bodyStart = (int) end - in.available();
              int compressed = header.getCompressed_page_size();
              int uncompressed = header.getUncompressed_page_size();
              in.skipNBytes(compressed);
              if (header.getType() == PageType.INDEX_PAGE) {
                continue;
              }
              int levels = 0;
              if (header.getType() == PageType.DATA_PAGE_V2) {
                DataPageHeaderV2 v2 = header.getData_page_header_v2();
                if (v2.isSetIs_compressed() && !v2.isIs_compressed()) {
                  continue; // stored uncompressed despite the column codec
                }
                levels = v2.getRepetition_levels_byte_length() + v2.getDefinition_levels_byte_length();
              }
              int srcLength = compressed - levels;
              int dstLength = uncompressed - levels;
              String where = file.getFileName() + " @" + bodyStart + " " + codec;
              byte[] expected;
              try {
                expected = reference(codec, bytes, bodyStart + levels, srcLength, dstLength);
              } catch (IOException | RuntimeException e) {
                throw new AssertionError("reference decoder fails on " + where + " " + header, e);
              }
              ByteBuf dst = source.buffer(dstLength + 16);
              try {
                d.decompress(whole, bodyStart + levels, srcLength, dst, 8, dstLength);
                assertArrayEquals(expected, PageBuffers.bytes(dst, 8, dstLength), where);
              } finally {
                dst.release();
              }
              pages.merge(codec, 1, Integer::sum);
            }
          }
        }
      } finally {
        whole.release();
      }
    }
    System.out.println("corpus pages decompressed by codec: " + pages + "; files skipped: " + unreadable);
    assertEquals(0, source.outstanding(), "buffers leaked");
    for (CompressionCodec codec : List.of(CompressionCodec.UNCOMPRESSED, CompressionCodec.SNAPPY,
        CompressionCodec.GZIP, CompressionCodec.ZSTD, CompressionCodec.LZ4, CompressionCodec.LZ4_RAW)) {
      assertTrue(pages.getOrDefault(codec, 0) > 0, "corpus pages for " + codec + ": " + pages + ", unreadable " + unreadable);
    }
  }

  private static FileMetaData footer(byte[] bytes) throws IOException {
    int n = bytes.length;
    if (n < 12 || bytes[n - 4] != 'P' || bytes[n - 3] != 'A' || bytes[n - 2] != 'R' || bytes[n - 1] != '1') {
      throw new IOException("no PAR1 footer");
    }
    int length = ByteBuffer.wrap(bytes, n - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    return Util.readFileMetaData(new ByteArrayInputStream(bytes, n - 8 - length, length));
  }

  /** What an independent decoder (byte-array APIs, streams) makes of the page body. */
  private static byte[] reference(CompressionCodec codec, byte[] file, int offset, int length, int uncompressed)
      throws IOException {
    byte[] page = java.util.Arrays.copyOfRange(file, offset, offset + length);
    if (length == 0) {
      return new byte[0];
    }
    switch (codec) {
      case UNCOMPRESSED:
        return page;
      case SNAPPY:
        return Snappy.uncompress(page);
      case GZIP:
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(page))) {
          return in.readAllBytes();
        }
      case ZSTD:
        return Zstd.decompress(page, uncompressed);
      case LZ4_RAW:
        return rawLz4(page, uncompressed);
      case LZ4:
        try (InputStream in = new Lz4HadoopStreams().createInputStream(new ByteArrayInputStream(page))) {
          return in.readAllBytes();
        } catch (IOException | RuntimeException notHadoop) {
          return rawLz4(page, uncompressed);
        }
      default:
        throw new AssertionError("no reference decoder for " + codec);
    }
  }

  private static byte[] rawLz4(byte[] page, int uncompressed) {
    byte[] out = new byte[uncompressed];
    int n = new Lz4Decompressor().decompress(page, 0, page.length, out, 0, out.length);
    assertEquals(uncompressed, n);
    return out;
  }
}
