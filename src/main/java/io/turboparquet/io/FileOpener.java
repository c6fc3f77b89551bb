package io.turboparquet.io;

import java.io.FileDescriptor;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.HasFileDescriptor;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.nativeio.NativeIO;

/**
 * Opens files for scanning with a read-ahead hint: Hadoop's {@code openFile()} read policy
 * ("sequential" when the hint is on, else {@link #COLUMNAR}, so object stores do not prefetch ranges
 * that a projection skips), and, where Hadoop's native library is loaded and the stream has a
 * file descriptor, {@code posix_fadvise(SEQUENTIAL)}. When the caller names the range it will
 * read, the hint covers that range only (the split start / end options, and the fadvise range):
 * bytes of columns the scan skips are never read ahead. The file's length goes with it, so object
 * stores need no HEAD request to open it.
 */
public final class FileOpener {
  private static final String READ_POLICY = "fs.option.openfile.read.policy";
  private static final String FILE_LENGTH = "fs.option.openfile.length";
  private static final String SPLIT_START = "fs.option.openfile.split.start";
  private static final String SPLIT_END = "fs.option.openfile.split.end";
  /**
   * The read policy of columnar reads, as a list in order of preference of which a store takes the
   * first it knows: newer Hadoop stores know "parquet" and "columnar"; Hadoop 3.3.6's S3A (Drill
   * 1.22's) knows "vector", which it reads as "random": each read a GET of its own range (plus
   * {@code fs.s3a.readahead.range}), never a GET to the end of the file.
   */
  static final String COLUMNAR = "parquet, columnar, vector, random";

  private FileOpener() {}

  /** Opens {@code path} for reading anywhere; the hint, when on, covers the whole file. */
  public static FSDataInputStream open(FileSystem fs, Path path, long fileLength, boolean sequential)
      throws IOException {
    return open(fs, path, fileLength, sequential, 0, fileLength);
  }

  /**
   * Opens {@code path} to read {@code [rangeStart, rangeStart + rangeLength)}; the read-ahead hint,
   * when on, is limited to that range.
   */
  public static FSDataInputStream open(FileSystem fs, Path path, long fileLength, boolean sequential,
      long rangeStart, long rangeLength) throws IOException {
    long rangeEnd = Math.min(fileLength, rangeStart + rangeLength);
    FSDataInputStream in;
    try {
      in = fs.openFile(path)
          .opt(READ_POLICY, sequential ? "sequential" : COLUMNAR)
          .opt(FILE_LENGTH, Long.toString(fileLength))
          .opt(SPLIT_START, Long.toString(rangeStart))
          .opt(SPLIT_END, Long.toString(rangeEnd))
          .build()
          .get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted opening " + path);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException("cannot open " + path + ": " + cause, cause);
    }
    if (sequential) {
      adviseSequential(in, path, rangeStart, rangeEnd - rangeStart);
    }
    return in;
  }

  public static FSDataInputStream open(FileSystem fs, FileStatus status, boolean sequential) throws IOException {
    return open(fs, status.getPath(), status.getLen(), sequential);
  }

  private static void adviseSequential(FSDataInputStream in, Path path, long start, long length) {
    if (!NativeIO.isAvailable() || !(in.getWrappedStream() instanceof HasFileDescriptor hasFd)) {
      return;
    }
    try {
      FileDescriptor fd = hasFd.getFileDescriptor();
      if (fd != null) {
        NativeIO.POSIX.getCacheManipulator().posixFadviseIfPossible(path.toString(), fd, start, length,
            NativeIO.POSIX.POSIX_FADV_SEQUENTIAL);
      }
    } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
      // A hint only: reading works the same without it.
    }
  }
}
