package io.turboparquet.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Replays Jazzer's seeds and the inputs of its past findings ({@code src/test/resources/fuzz/jazzer})
 * through {@link CoverageTarget} without Jazzer: each must end in a documented outcome. Runs in the
 * capped {@code fuzz-tests} JVM.
 */
class CoverageRegressionTest {
  @TestFactory
  Stream<DynamicTest> everySavedInputEndsCleanly() throws IOException {
    List<Path> inputs;
    try (Stream<Path> s = Files.list(JazzerCampaign.SEEDS)) {
      inputs = s.sorted().toList();
    }
    assertTrue(inputs.size() > CoverageTarget.Part.values().length, "seeds missing from " + JazzerCampaign.SEEDS);
    return inputs.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(),
        () -> CoverageTarget.fuzzerTestOneInput(Files.readAllBytes(p))));
  }
}
