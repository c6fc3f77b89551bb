package io.turboparquet.cli;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.io.BufferSource;
import io.turboparquet.io.ChunkInput;
import io.turboparquet.io.FileOpener;
import io.turboparquet.io.StoreReads;
import io.turboparquet.page.ChunkLocation;
import io.turboparquet.page.Page;
import io.turboparquet.page.PageDecompressor;
import io.turboparquet.page.PageReader;
import io.turboparquet.scan.ScanMetrics;
import io.turboparquet.scan.ScanOptions;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The floor a full scan is measured against (DESIGN.md): on one thread, read every projected
 * column chunk and decompress every page, decoding nothing. Uses the same stream, page reader and
 * decompressor as the real scan.
 */
final class FloorScan {
  private FloorScan() {}

  /** Returns the rows of the row groups read; fills {@code metrics} with pages, bytes and times. */
  static long run(FileSystem fs, Path path, FileMetadata meta, List<ColumnDescriptor> projection, ScanOptions options,
      BufferSource buffers, ScanMetrics metrics) throws IOException {
    long rows = 0;
    int bufferSize = options.io().bufferSizeFor(projection.size());
    for (RowGroupMeta rg : meta.rowGroups()) {
      metrics.addRowGroup(rg.numRows());
      rows += rg.numRows();
      for (ColumnDescriptor column : projection) {
        ColumnChunkMeta chunk = rg.column(column.index());
        ChunkLocation location = new ChunkLocation(meta.file(), rg.index(), chunk);
        try (FSDataInputStream in = FileOpener.open(fs, path, meta.fileLength(), options.io().readAheadHint())) {
          ChunkInput input = ChunkInput.open(in, meta.file(), meta.fileLength(), chunk.startOffset(),
              chunk.totalCompressedSize(), options.io().bufferedReads(), bufferSize, buffers);
          PageDecompressor decompressor = new PageDecompressor(location, buffers, options.decode().verifyChecksums(),
              options.limits().maxPageBytes());
          try (PageReader pages = new PageReader(input, location, options.limits().maxPageBytes(), buffers)) {
            Page page;
            while ((page = pages.next()) != null) {
              try {
                long t0 = System.nanoTime();
                ByteBuf bytes = decompressor.decompress(page);
                metrics.addDecompress(System.nanoTime() - t0, page.header().uncompressedSize());
                decompressor.recycle(bytes);
                if (page.header().isDataPage()) {
                  metrics.addDataPage();
                } else {
                  metrics.addDictionaryPage();
                }
              } finally {
                page.release();
              }
            }
          } finally {
            decompressor.close();
            metrics.addDiskRead(input.readNanos(), input.bytesRead(), input.readCalls());
            metrics.addStoreReads(StoreReads.of(in));
          }
        }
      }
    }
    return rows;
  }
}
