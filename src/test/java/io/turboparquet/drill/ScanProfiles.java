package io.turboparquet.drill;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.drill.exec.ops.OperatorMetricRegistry;
import org.apache.drill.exec.proto.UserBitShared.MajorFragmentProfile;
import org.apache.drill.exec.proto.UserBitShared.MetricValue;
import org.apache.drill.exec.proto.UserBitShared.MinorFragmentProfile;
import org.apache.drill.exec.proto.UserBitShared.OperatorProfile;
import org.apache.drill.exec.proto.UserBitShared.QueryProfile;
import org.apache.drill.exec.proto.UserBitShared.StreamProfile;
import org.apache.drill.test.ClusterFixture;
import org.apache.drill.test.QueryBuilder.QuerySummary;

/**
 * The operators of one type in a finished query's profile, read from the drillbit's completed
 * profile store (written synchronously when {@code exec.query_profile.debug_mode} is on) or given.
 */
final class ScanProfiles {
  private ScanProfiles() {
  }

  /** One operator's metrics by name (id where the registry has no name), batches and records. */
  record Operator(Map<String, Long> metrics, long batches, long records, String endpoint) {
    long metric(String name) {
      Long v = metrics.get(name);
      if (v == null) {
        throw new AssertionError("no metric " + name + " in " + metrics);
      }
      return v;
    }
  }

  static List<Operator> of(ClusterFixture cluster, QuerySummary summary, String operatorType) throws Exception {
    return of(cluster, summary.queryIdString(), operatorType);
  }

  /** The profile of a completed query by its id (e.g. a fully read QueryRowSetIterator's). */
  static List<Operator> of(ClusterFixture cluster, String queryId, String operatorType) throws Exception {
    QueryProfile profile = cluster.drillbit().getContext().getProfileStoreContext().getCompletedProfileStore()
        .get(queryId);
    if (profile == null) {
      throw new AssertionError("no profile for " + queryId);
    }
    return of(profile, operatorType);
  }

  static List<Operator> of(QueryProfile profile, String operatorType) {
    // Our metric names enter Drill's registry when a plugin is created; the profile may come from another JVM.
    ScanMetric.registerNames(TurboParquetRowGroupScan.OPERATOR_TYPE);
    String[] names = OperatorMetricRegistry.getMetricNames(operatorType);
    List<Operator> out = new ArrayList<>();
    for (MajorFragmentProfile major : profile.getFragmentProfileList()) {
      for (MinorFragmentProfile minor : major.getMinorFragmentProfileList()) {
        for (OperatorProfile op : minor.getOperatorProfileList()) {
          if (!operatorType.equals(op.getOperatorTypeName())) {
            continue;
          }
          Map<String, Long> metrics = new LinkedHashMap<>();
          for (MetricValue m : op.getMetricList()) {
            int id = m.getMetricId();
            metrics.put(names != null && id < names.length ? names[id] : String.valueOf(id), m.getLongValue());
          }
          long batches = 0;
          long records = 0;
          for (StreamProfile s : op.getInputProfileList()) {
            batches += s.getBatches();
            records += s.getRecords();
          }
          String endpoint = minor.getEndpoint().getAddress() + ":" + minor.getEndpoint().getControlPort();
          out.add(new Operator(metrics, batches, records, endpoint));
        }
      }
    }
    return out;
  }
}
