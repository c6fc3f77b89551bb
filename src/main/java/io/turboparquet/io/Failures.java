package io.turboparquet.io;

import java.io.IOException;

/** Failures carried from another thread (a pool task, a cache loader) to the reader that waits for them. */
public final class Failures {
  private Failures() {}

  /**
   * Throws {@code t} as it is when it is an IOException or unchecked, else wrapped in an
   * IOException; does nothing when it is null.
   */
  public static void rethrow(Throwable t) throws IOException {
    if (t == null) {
      return;
    }
    if (t instanceof IOException io) {
      throw io;
    }
    if (t instanceof RuntimeException re) {
      throw re;
    }
    if (t instanceof Error err) {
      throw err;
    }
    throw new IOException(t);
  }
}
