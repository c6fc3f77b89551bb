package io.turboparquet.scan;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.format.RowGroupMeta;
import io.turboparquet.io.ChunkInput;
import io.turboparquet.io.FetchedChunkInput;
import io.turboparquet.io.FileOpener;
import io.turboparquet.io.ReadPlanner;
import io.turboparquet.page.IndexedPageReader;
import io.turboparquet.io.StoreReads;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * The coalesced reads of one row group's projected column chunks: planned by {@link ReadPlanner},
 * issued at once as one Hadoop vectored read where the file system's stream supports it, else as
 * parallel positional reads on the scan pool (each part on a stream of its own, so storage that
 * limits each connection is read over several); on the calling thread when the scan is
 * synchronous. A column's {@link #input(int)} waits only for the reads holding its chunk.
 * Nothing outside the projected chunks is read, except gaps of at most
 * {@link ScanOptions.Io#coalesceGap()} bytes between them. With a {@link PageSelection}, only its
 * segments of each chunk are read (page-index skipping).
 */
final class RowGroupFetch implements AutoCloseable {
  private final ScanContext context;
  private final FileMetadata meta;
  private final Path path;
  private final int rowGroup;
  private final List<ColumnDescriptor> projection;
  private final long[] starts;
  private final long[] lengths;
  /** Segments read: file ranges [segStarts[s], segEnds[s]) of projection column segColumn[s], in column order. */
  private final long[] segStarts;
  private final long[] segEnds;
  private final int[] firstSegment; // projection index -> its first segment; n -> segment count
  private final int[] rangeOf; // segment index -> range index
  /** The reads of each range, each into a buffer of its own (see {@link ReadPlanner.Range#parts}). */
  private final List<List<FetchPart>> parts = new ArrayList<>();
  private final long bytes;
  private FSDataInputStream vectoredStream;
  /**
   * Buffers of our own a vectored read was given instead of views of the parts' buffers, by the
   * buffer handed out; each released once its bytes are copied into place, the rest on close.
   */
  private final Map<ByteBuffer, ByteBuf> vectoredExtra = new IdentityHashMap<>();
  /** Bytes taken from the scans' shared {@link ReadAheadAllowance}, given back on close. */
  private final long shared;
  private volatile boolean closed;

  private RowGroupFetch(ScanContext context, FileMetadata meta, Path path, int rowGroup,
      List<ColumnDescriptor> projection, PageSelection selection, long shared) {
    this.context = context;
    this.shared = shared;
    this.meta = meta;
    this.path = path;
    this.rowGroup = rowGroup;
    this.projection = projection;
    RowGroupMeta rg = meta.rowGroups().get(rowGroup);
    int n = projection.size();
    starts = new long[n];
    lengths = new long[n];
    long[] ends = new long[n];
    long sum = 0;
    for (int i = 0; i < n; i++) {
      ColumnChunkMeta chunk = rg.column(projection.get(i).index());
      starts[i] = chunk.startOffset(); // the footer checked the chunk lies in the file
      lengths[i] = chunk.totalCompressedSize();
      ends[i] = starts[i] + lengths[i];
      sum += lengths[i];
    }
    firstSegment = new int[n + 1];
    long[] segS = starts;
    long[] segE = ends;
    if (selection != null) {
      int count = 0;
      for (int i = 0; i < n; i++) {
        firstSegment[i] = count;
        count += selection.segments(i).length / 2;
      }
      firstSegment[n] = count;
      segS = new long[count];
      segE = new long[count];
      sum = 0;
      for (int i = 0; i < n; i++) {
        long[] seg = selection.segments(i);
        for (int k = 0; k < seg.length / 2; k++) {
          segS[firstSegment[i] + k] = seg[2 * k];
          segE[firstSegment[i] + k] = seg[2 * k + 1];
          sum += seg[2 * k + 1] - seg[2 * k];
        }
      }
    } else {
      for (int i = 0; i <= n; i++) {
        firstSegment[i] = i;
      }
    }
    segStarts = segS;
    segEnds = segE;
    bytes = sum;
    rangeOf = new int[segS.length];
    ScanOptions options = context.options();
    List<ReadPlanner.Range> plan = ReadPlanner.coalesce(segS, segE, options.io().coalesceGap(),
        options.io().coalesceMaxSize());
    try {
      for (int r = 0; r < plan.size(); r++) {
        ReadPlanner.Range range = plan.get(r);
        for (int m : range.members()) {
          rangeOf[m] = r;
        }
        List<FetchPart> rangeParts = new ArrayList<>();
        parts.add(rangeParts);
        for (long[] p : range.parts(options.io().coalesceMaxSize(), context.buffers())) {
          int length = (int) (p[1] - p[0]);
          rangeParts.add(new FetchPart(this, context.buffers().buffer(length), p[0], length));
        }
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /**
   * Plans the row group's reads and starts them: on the scan pool when the scan reads
   * asynchronously, else right here. The caller closes the fetch, which gives back the
   * {@code shared} bytes taken for it from the scans' {@link ReadAheadAllowance}.
   */
  static RowGroupFetch start(ScanContext context, FileMetadata meta, Path path, int rowGroup,
      List<ColumnDescriptor> projection, PageSelection selection, long shared) {
    RowGroupFetch fetch = new RowGroupFetch(context, meta, path, rowGroup, projection, selection, shared);
    try {
      fetch.issue();
    } catch (RuntimeException | Error e) {
      fetch.close();
      throw e;
    }
    return fetch;
  }

  /** Bytes the projected chunks of {@code rowGroup} occupy: what a fetch holds in memory (gaps aside). */
  static long projectedBytes(FileMetadata meta, int rowGroup, List<ColumnDescriptor> projection) {
    RowGroupMeta rg = meta.rowGroups().get(rowGroup);
    long sum = 0;
    for (ColumnDescriptor c : projection) {
      sum += rg.column(c.index()).totalCompressedSize();
    }
    return sum;
  }

  private void issue() {
    boolean async = context.options().io().asyncPageReads() && context.scanPool() != null;
    context.metrics().addCoalescedRanges(parts.size());
    if (async && issueVectored()) {
      return;
    }
    long t0 = System.nanoTime();
    for (List<FetchPart> rangeParts : parts) {
      for (FetchPart p : rangeParts) {
        if (async) {
          try {
            context.scanPool().execute(p);
          } catch (RejectedExecutionException e) {
            p.run(); // a refusing pool still gets the bytes read, on this thread
          }
        } else {
          p.run();
        }
      }
    }
    if (!async) {
      // The decoding thread itself waited for these reads: storage time, as a page read would be.
      long waited = System.nanoTime() - t0;
      context.metrics().addPageReaderWait(waited);
      context.metrics().addFetchWait(waited);
    }
  }

  /**
   * Issues every part as one vectored read when the file system's stream supports it (Hadoop 3.3.5+:
   * the local file system reads the ranges in parallel on an asynchronous channel, object stores
   * in parallel requests). Returns false, having read nothing, when the stream does not.
   */
  private boolean issueVectored() {
    List<FetchPart> all = new ArrayList<>();
    parts.forEach(all::addAll);
    if (all.isEmpty()) {
      return false;
    }
    all.sort(java.util.Comparator.comparingLong(FetchPart::start));
    FetchPart first = all.get(0);
    FetchPart last = all.get(all.size() - 1);
    FSDataInputStream in;
    try {
      in = FileOpener.open(context.fileSystem(), path, meta.fileLength(), context.options().io().readAheadHint(),
          first.start(), last.start() + last.length() - first.start());
    } catch (IOException | RuntimeException e) {
      return false; // the per-part reads will report it
    }
    if (!in.hasCapability(StreamCapabilities.VECTOREDIO)) {
      try {
        in.close();
      } catch (IOException e) {
        // a read-only stream: nothing is lost
      }
      return false;
    }
    vectoredStream = in;
    Views views = new Views(all);
    IntFunction<ByteBuffer> allocate = length -> {
      ByteBuffer view = views.next(length);
      if (view != null) {
        return view;
      }
      ByteBuf extra = context.buffers().buffer(length);
      ByteBuffer buffer = extra.nioBuffer(0, length);
      synchronized (vectoredExtra) {
        vectoredExtra.put(buffer, extra);
      }
      return buffer;
    };
    List<FileRange> ranges = new ArrayList<>();
    for (FetchPart p : all) {
      p.claim();
      ranges.add(FileRange.createFileRange(p.start(), p.length(), p));
    }
    long t0 = System.nanoTime();
    try {
      in.readVectored(ranges, allocate);
    } catch (IOException | RuntimeException e) {
      for (FetchPart p : all) {
        p.vectoredDone(null, e, t0);
      }
      return true;
    } finally {
      views.end();
    }
    for (FileRange r : ranges) {
      FetchPart p = (FetchPart) r.getReference();
      r.getData().whenComplete((data, failure) -> p.vectoredDone(data, failure, t0));
    }
    return true;
  }

  /**
   * Which of a vectored read's buffer requests get views of the parts' own buffers, so that their
   * bytes land in place. The allocator is told a length only, not which range it is for. A stream
   * that reads range by range asks on the calling thread, in offset order, for each range's exact
   * length (the raw local file system, S3A's reads of far-apart ranges): those requests get the
   * parts' views. Any other request (a checksummed local file asks first for its checksums, then
   * for merged ranges rounded to 512 bytes; S3A merges near ranges on its pool threads) could take
   * another part's view by its length alone, so from the first one on every request gets a buffer
   * of its own and its bytes are copied.
   */
  static final class Views {
    private final ArrayDeque<FetchPart> order;
    private final Thread issuer = Thread.currentThread();
    private boolean inOrder = true;

    Views(List<FetchPart> partsInOffsetOrder) {
      order = new ArrayDeque<>(partsInOffsetOrder);
    }

    /** The next part's view when this request is for it, else null. */
    synchronized ByteBuffer next(int length) {
      if (inOrder && Thread.currentThread() == issuer) {
        FetchPart p = order.peek();
        if (p != null && p.length() == length) {
          order.poll();
          return p.view();
        }
      }
      inOrder = false;
      return null;
    }

    /** The read call has returned: later requests, from any thread, get buffers of their own. */
    synchronized void end() {
      inOrder = false;
    }
  }

  /** Releases the buffer of our own behind {@code data}, whose bytes are now in place. */
  void releaseExtra(ByteBuffer data) {
    ByteBuf extra;
    synchronized (vectoredExtra) {
      extra = vectoredExtra.remove(data);
    }
    if (extra != null) {
      extra.release();
    }
  }

  int rowGroup() {
    return rowGroup;
  }

  ScanContext context() {
    return context;
  }

  FileMetadata meta() {
    return meta;
  }

  Path path() {
    return path;
  }

  boolean isClosed() {
    return closed;
  }

  /** Bytes of the buffers this fetch holds. */
  long bytes() {
    return bytes;
  }

  /** The chunk of projection column {@code i}, served from memory once its range is read. The caller closes it. */
  ChunkInput input(int i) {
    return input(i, firstSegment[i], starts[i], lengths[i]);
  }

  /** The segments of projection column {@code i} (a page selection's byte ranges), each served from memory. */
  List<IndexedPageReader.Segment> segments(int i) {
    List<IndexedPageReader.Segment> out = new ArrayList<>();
    try {
      for (int s = firstSegment[i]; s < firstSegment[i + 1]; s++) {
        out.add(new IndexedPageReader.Segment(segStarts[s], segEnds[s],
            input(i, s, segStarts[s], segEnds[s] - segStarts[s])));
      }
    } catch (RuntimeException e) {
      out.forEach(seg -> seg.input().close());
      throw e;
    }
    return out;
  }

  private ChunkInput input(int i, int segment, long start, long length) {
    List<FetchPart> rangeParts = new ArrayList<>(); // the reads holding the chunk's bytes
    List<ByteBuf> pieces = new ArrayList<>();
    long end = start + length;
    try {
      for (FetchPart p : parts.get(rangeOf[segment])) {
        long from = Math.max(start, p.start());
        long to = Math.min(end, p.start() + p.length());
        if (from < to) {
          rangeParts.add(p);
          pieces.add(p.buffer().retainedSlice((int) (from - p.start()), (int) (to - from)));
        }
      }
    } catch (RuntimeException e) {
      pieces.forEach(ByteBuf::release);
      throw e;
    }
    ColumnDescriptor column = projection.get(i);
    try {
      return new FetchedChunkInput(meta.file(), pieces, start, length, context.buffers(), () -> {
        for (FetchPart p : rangeParts) {
          p.await();
          p.check(column);
        }
      }, context.metrics()::addFetchWait);
    } catch (RuntimeException e) {
      pieces.forEach(ByteBuf::release);
      throw e;
    }
  }

  /** Stops reads that have not started, waits for running ones, and drops this fetch's buffers. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (List<FetchPart> rangeParts : parts) {
      for (FetchPart p : rangeParts) {
        p.cancel();
      }
    }
    for (List<FetchPart> rangeParts : parts) {
      for (FetchPart p : rangeParts) {
        try {
          p.await();
        } catch (IOException e) {
          // cannot happen while closing: await only throws when not closed
        }
      }
    }
    for (List<FetchPart> rangeParts : parts) {
      for (FetchPart p : rangeParts) {
        p.buffer().release();
      }
    }
    synchronized (vectoredExtra) {
      vectoredExtra.values().forEach(ByteBuf::release);
      vectoredExtra.clear();
    }
    if (vectoredStream != null) {
      context.metrics().addStoreReads(StoreReads.of(vectoredStream));
      try {
        vectoredStream.close();
      } catch (IOException e) {
        // a read-only stream: nothing is lost
      }
      vectoredStream = null;
    }
    context.readAhead().giveBack(shared);
  }
}
