package io.turboparquet.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MinimizerTest {
  private static byte[] random(int n) {
    byte[] b = new byte[n];
    new SplittableRandom(3).nextBytes(b);
    return b;
  }

  @Test
  void keepsOnlyTheBytesTheFailureNeeds() {
    byte[] original = random(1000);
    byte[] mutated = original.clone();
    for (int i : new int[] {3, 100, 500, 501, 900}) {
      mutated[i] ^= 0x55;
    }
    // Fails while bytes 100 and 501 are mutated, whatever the others hold.
    byte[] min = Minimizer.minimize(original, mutated, b -> b[100] == mutated[100] && b[501] == mutated[501], 1000);
    byte[] expected = original.clone();
    expected[100] = mutated[100];
    expected[501] = mutated[501];
    assertArrayEquals(expected, min);
    assertEquals(2, Minimizer.distance(original, min));
  }

  @Test
  void aTruncationKeepsItsLengthAndLosesItsOtherEdits() {
    byte[] original = random(600);
    byte[] mutated = Arrays.copyOf(original, 400);
    mutated[10] = 0;
    mutated[11] = 1;
    byte[] min = Minimizer.minimize(original, mutated, b -> b.length == 400, 1000);
    assertArrayEquals(Arrays.copyOf(original, 400), min);
  }

  @Test
  void staysWithinItsRunBudgetAndNeverReturnsAPassingFile() {
    byte[] original = random(4096);
    byte[] mutated = random(4096);
    for (int i = 0; i < mutated.length; i++) {
      mutated[i] ^= (byte) 0xff; // every byte differs
    }
    AtomicInteger runs = new AtomicInteger();
    byte[] min = Minimizer.minimize(original, mutated, b -> {
      runs.incrementAndGet();
      return b[4095] != original[4095];
    }, 50);
    assertTrue(runs.get() <= 50, runs + " runs");
    assertTrue(min[4095] != original[4095], "the result still fails");
    assertTrue(Minimizer.distance(original, min) < 4096, "something was restored");
  }
}
