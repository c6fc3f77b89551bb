package io.turboparquet.drill;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.UncheckedExecutionException;
import io.turboparquet.format.FileMetadata;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * parquet-java's footer of a file, for the parts of Drill that only take that form (its nested
 * reader's converters, its run-time row-group pruning). Read only when such a part needs it, once
 * per file and fragment rather than once per row group: the cache is keyed by our decoded footer
 * (by identity, which the batch creator reads once per file and fragment) and forgets it with it.
 */
final class ParquetJavaFooters {
  private static final Cache<FileMetadata, ParquetMetadata> FOOTERS = CacheBuilder.newBuilder().weakKeys().build();

  private ParquetJavaFooters() {}

  static ParquetMetadata of(FileMetadata metadata, Path path, FileSystem fs) throws IOException {
    try {
      return FOOTERS.get(metadata, () -> {
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(path, fs.getConf()))) {
          return reader.getFooter();
        }
      });
    } catch (ExecutionException | UncheckedExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      throw new IOException(cause);
    }
  }
}
