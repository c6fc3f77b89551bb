package io.turboparquet.fuzz;

import java.util.Arrays;
import java.util.function.Predicate;

/**
 * Shrinks a failing mutation towards the original file: restores windows of the original's bytes,
 * halving the window each round, keeping every restore after which the case still fails the same
 * way. What remains differs from the original only where the failure needs it. Bytes past the
 * shorter of the two files (a truncation) are left as they are.
 */
public final class Minimizer {
  private Minimizer() {}

  /** The minimized bytes; at most {@code maxRuns} calls of {@code stillFails}. */
  public static byte[] minimize(byte[] original, byte[] mutated, Predicate<byte[]> stillFails, int maxRuns) {
    byte[] current = mutated.clone();
    int n = Math.min(original.length, current.length);
    int runs = 0;
    for (int window = Integer.highestOneBit(Math.max(1, n)); window >= 1 && runs < maxRuns; window /= 2) {
      for (int start = 0; start < n && runs < maxRuns; start += window) {
        int end = Math.min(n, start + window);
        if (Arrays.equals(current, start, end, original, start, end)) {
          continue;
        }
        byte[] candidate = current.clone();
        System.arraycopy(original, start, candidate, start, end - start);
        runs++;
        if (stillFails.test(candidate)) {
          current = candidate;
        }
      }
    }
    return current;
  }

  /** Bytes at which {@code a} and {@code b} differ, over the shorter length, plus the length difference. */
  public static int distance(byte[] a, byte[] b) {
    int n = Math.min(a.length, b.length);
    int d = Math.abs(a.length - b.length);
    for (int i = 0; i < n; i++) {
      d += a[i] != b[i] ? 1 : 0;
    }
    return d;
  }
}
