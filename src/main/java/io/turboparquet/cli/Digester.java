package io.turboparquet.cli;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.scan.Batch;
import io.turboparquet.scan.ColumnBatch;
import io.turboparquet.scan.ParquetFileScanner;
import io.turboparquet.scan.ScanContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;

/** Computes the digest lines of DESIGN.md for a file: one per projected leaf, in schema order. */
public final class Digester {
  private Digester() {}

  public static List<String> digest(ScanContext context, Path path, List<String> columns) throws IOException {
    try (ParquetFileScanner scanner = ParquetFileScanner.open(context, path, columns)) {
      List<ColumnDescriptor> projection = scanner.projection();
      List<ColumnDigest> digests = new ArrayList<>(projection.size());
      for (ColumnDescriptor c : projection) {
        digests.add(new ColumnDigest(c));
      }
      Batch batch;
      while ((batch = scanner.next()) != null) {
        List<ColumnBatch> cols = batch.columns();
        for (int i = 0; i < cols.size(); i++) {
          digests.get(i).accept(cols.get(i));
        }
        scanner.decodeAhead();
      }
      List<String> lines = new ArrayList<>(digests.size());
      for (ColumnDigest d : digests) {
        lines.add(d.line());
      }
      return lines;
    }
  }
}
