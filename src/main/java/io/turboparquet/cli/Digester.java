package io.turboparquet.cli;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.FileMetadata;
import io.turboparquet.io.ErrorContext;
import io.turboparquet.scan.Batch;
import io.turboparquet.scan.ColumnBatch;
import io.turboparquet.scan.ParquetFileScanner;
import io.turboparquet.scan.ScanContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/** Computes the digest lines of DESIGN.md for a file or a dataset: one per projected leaf, in schema order. */
public final class Digester {
  private Digester() {}

  public static List<String> digest(ScanContext context, Path path, List<String> columns) throws IOException {
    return digest(context, List.of(context.fileSystem().getFileStatus(path)), columns);
  }

  /**
   * The digest of {@code files} read one after another, as if they were one file: each column's
   * values in file order, files in the order given. Every file must have the first one's projected
   * columns (same paths, physical types and levels), or the digest would mix unlike values.
   */
  public static List<String> digest(ScanContext context, List<FileStatus> files, List<String> columns)
      throws IOException {
    List<ColumnDescriptor> first = null;
    String firstFile = null;
    List<ColumnDigest> digests = new ArrayList<>();
    for (FileStatus file : files) {
      FileMetadata metadata = ParquetFileScanner.readMetadata(context, file, ParquetFileScanner.footerFor(columns, null));
      try (ParquetFileScanner scanner = ParquetFileScanner.open(context, file.getPath(), metadata, columns)) {
        List<ColumnDescriptor> projection = scanner.projection();
        if (first == null) {
          first = projection;
          firstFile = metadata.file();
          for (ColumnDescriptor c : projection) {
            digests.add(new ColumnDigest(c));
          }
        } else {
          requireSameColumns(first, firstFile, projection, metadata.file());
        }
        Batch batch;
        while ((batch = scanner.next()) != null) {
          List<ColumnBatch> cols = batch.columns();
          for (int i = 0; i < cols.size(); i++) {
            digests.get(i).accept(cols.get(i));
          }
          scanner.decodeAhead();
        }
      }
    }
    List<String> lines = new ArrayList<>(digests.size());
    for (ColumnDigest d : digests) {
      lines.add(d.line());
    }
    return lines;
  }

  private static void requireSameColumns(List<ColumnDescriptor> first, String firstFile,
      List<ColumnDescriptor> these, String file) {
    List<String> want = first.stream().map(Digester::shape).toList();
    List<String> got = these.stream().map(Digester::shape).toList();
    if (!want.equals(got)) {
      throw ErrorContext.of(file).illegalArgument("its columns " + got + " are not those of " + firstFile + " " + want
          + ": one digest over a dataset needs the same projected columns in every file");
    }
  }

  private static String shape(ColumnDescriptor c) {
    return c.dottedPath() + " " + c.physicalType() + " def " + c.maxDefinitionLevel() + " rep "
        + c.maxRepetitionLevel();
  }
}
