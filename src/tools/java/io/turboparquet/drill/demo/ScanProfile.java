package io.turboparquet.drill.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.drill.exec.ops.OperatorMetricRegistry;

/**
 * The scan operators of one completed query profile (Drill's profile JSON): their time and their
 * metrics summed over the minor fragments (settings, {@code OPTION_*}, are the same in each and
 * not summed), the longest single operator's process time (the scan's critical path) and its
 * longest process + wait time (wait: blocked on reads), with the metric names Drill's registry
 * gives the operator type (a metric without a registered name is shown by its id).
 */
record ScanProfile(String operatorType, int operators, long processNanos, long maxProcessNanos, long waitNanos,
    long maxElapsedNanos, Map<String, Long> metrics) {

  /** The scan operators of type {@code operatorType} in the profile; none gives zero operators. */
  static ScanProfile of(String profileJson, String operatorType) throws IOException {
    JsonNode profile = new ObjectMapper().readTree(profileJson);
    String[] names = OperatorMetricRegistry.getMetricNames(operatorType);
    Map<String, Long> metrics = new TreeMap<>();
    int operators = 0;
    long process = 0;
    long maxProcess = 0;
    long maxElapsed = 0;
    long wait = 0;
    for (JsonNode major : profile.path("fragmentProfile")) {
      for (JsonNode minor : major.path("minorFragmentProfile")) {
        for (JsonNode op : minor.path("operatorProfile")) {
          if (!operatorType.equals(op.path("operatorTypeName").asText())) {
            continue;
          }
          operators++;
          process += op.path("processNanos").asLong();
          maxProcess = Math.max(maxProcess, op.path("processNanos").asLong());
          maxElapsed = Math.max(maxElapsed, op.path("processNanos").asLong() + op.path("waitNanos").asLong());
          wait += op.path("waitNanos").asLong();
          for (JsonNode metric : op.path("metric")) {
            int id = metric.path("metricId").asInt();
            String name = names != null && id < names.length ? names[id] : "metric #" + id;
            long value = metric.has("longValue") ? metric.path("longValue").asLong()
                : Math.round(metric.path("doubleValue").asDouble());
            metrics.merge(name, value, name.startsWith("OPTION_") ? Long::max : Long::sum);
          }
        }
      }
    }
    return new ScanProfile(operatorType, operators, process, maxProcess, wait, maxElapsed, metrics);
  }
}
