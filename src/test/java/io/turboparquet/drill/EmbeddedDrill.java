package io.turboparquet.drill;

import java.util.List;
import org.apache.drill.exec.ExecConstants;
import org.apache.drill.test.BaseDirTestWatcher;
import org.apache.drill.test.ClusterFixture;
import org.apache.drill.test.ClusterFixtureBuilder;

/** The embedded drillbits of our Drill tests, with their spill and code directories under the test's own. */
final class EmbeddedDrill {
  private EmbeddedDrill() {}

  static ClusterFixtureBuilder builder(BaseDirTestWatcher dirs) {
    return ClusterFixture.builder(dirs)
        // A list, not its toString(): sorts and hash aggregates that spill read it as one.
        .configNonStringProperty(ExecConstants.SPILL_DIRS, List.of(dirs.getSpillDir().getAbsolutePath()))
        .configProperty("drill.exec.compile.code_dir", dirs.getCodegenDir().getAbsolutePath());
  }
}
