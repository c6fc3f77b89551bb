package io.turboparquet.drill;

import java.util.List;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.test.BaseDirTestWatcher;
import org.apache.drill.test.ClusterFixture;
import org.apache.drill.test.ClusterFixtureBuilder;

/**
 * The embedded drillbits of our Drill tests, with their spill and code directories under the test's own, and
 * Drill's built-in functions only.
 */
final class EmbeddedDrill {
  private EmbeddedDrill() {}

  static ClusterFixtureBuilder builder(BaseDirTestWatcher dirs) {
    return ClusterFixture.builder(dirs)
        // A list, not its toString(): sorts and hash aggregates that spill read it as one.
        .configNonStringProperty(ExecConstants.SPILL_DIRS, List.of(dirs.getSpillDir().getAbsolutePath()))
        .configProperty("drill.exec.compile.code_dir", dirs.getCodegenDir().getAbsolutePath())
        // No test registers a UDF (CREATE FUNCTION USING JAR): each query plans with the operator table
        // built at startup from the same built-in functions instead of rebuilding it (14% of a
        // comparison test's CPU went to that rebuild).
        .systemOption(ExecConstants.USE_DYNAMIC_UDFS_KEY, false);
  }
}
