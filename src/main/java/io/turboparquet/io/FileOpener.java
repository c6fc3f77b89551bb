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
 * ("sequential" when the hint is on, "random" otherwise, so object stores do not prefetch ranges
 * that a projection skips), and, where Hadoop's native library is loaded and the stream has a
 * file descriptor, {@code posix_fadvise(SEQUENTIAL)}.
 */
public final class FileOpener {
  private static final String READ_POLICY = "fs.option.openfile.read.policy";
  private static final String FILE_LENGTH = "fs.option.openfile.length";

  private FileOpener() {}

  public static FSDataInputStream open(FileSystem fs, Path path, long fileLength, boolean sequential)
      throws IOException {
    FSDataInputStream in;
    try {
      in = fs.openFile(path)
          .opt(READ_POLICY, sequential ? "sequential" : "random")
          .opt(FILE_LENGTH, Long.toString(fileLength))
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
      adviseSequential(in, path, fileLength);
    }
    return in;
  }

  public static FSDataInputStream open(FileSystem fs, FileStatus status, boolean sequential) throws IOException {
    return open(fs, status.getPath(), status.getLen(), sequential);
  }

  private static void adviseSequential(FSDataInputStream in, Path path, long length) {
    if (!NativeIO.isAvailable() || !(in.getWrappedStream() instanceof HasFileDescriptor hasFd)) {
      return;
    }
    try {
      FileDescriptor fd = hasFd.getFileDescriptor();
      if (fd != null) {
        NativeIO.POSIX.getCacheManipulator().posixFadviseIfPossible(path.toString(), fd, 0, length,
            NativeIO.POSIX.POSIX_FADV_SEQUENTIAL);
      }
    } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
      // A hint only: reading works the same without it.
    }
  }
}
