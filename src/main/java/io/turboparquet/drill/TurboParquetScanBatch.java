package io.turboparquet.drill;

import io.turboparquet.scan.RowGroupPipeline;
import io.turboparquet.scan.ScanMetrics;
import io.turboparquet.scan.ScanOptions;
import java.util.List;
import java.util.Map;
import org.apache.drill.exec.ops.FragmentContext;
import org.apache.drill.exec.ops.OperatorContext;
import org.apache.drill.exec.physical.impl.ScanBatch;
import org.apache.drill.exec.store.RecordReader;

/**
 * Drill's scan operator over our record readers, which closes the fragment's {@link RowGroupPipeline}
 * with the operator. Drill closes only the reader in use when a scan ends early (LIMIT, cancel, a
 * failure), and between two readers none is in use, so the readers cannot own the row groups read
 * ahead for the ones after them; the operator can. Its close also writes the pipeline's counters
 * into the profile, once.
 */
final class TurboParquetScanBatch extends ScanBatch {
  private final RowGroupPipeline pipeline;
  private final ScanMetrics metrics;
  private final ScanOptions options;
  private final long rowGroups;
  private final long pruned;
  private boolean closed;

  TurboParquetScanBatch(FragmentContext context, OperatorContext operator, List<? extends RecordReader> readers,
      List<Map<String, String>> implicitColumns, RowGroupPipeline pipeline, ScanMetrics metrics, ScanOptions options,
      long rowGroups, long pruned) {
    super(context, operator, readers, implicitColumns);
    this.pipeline = pipeline;
    this.metrics = metrics;
    this.options = options;
    this.rowGroups = rowGroups;
    this.pruned = pruned;
  }

  @Override
  public void close() throws Exception {
    if (closed) {
      return;
    }
    closed = true;
    pipeline.cancel(); // decoding ahead on the scan-decode pool stops at its next batch (cancel, LIMIT, failure)
    try {
      super.close();
    } finally {
      try {
        pipeline.close();
      } finally {
        ProfileMetrics.reportScan(getOperatorContext().getStats(), metrics, options, rowGroups, pruned);
      }
    }
  }
}
