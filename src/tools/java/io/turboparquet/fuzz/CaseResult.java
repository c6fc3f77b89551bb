package io.turboparquet.fuzz;

/** A case's outcome and what explains it (exception and top of its stack, the broken rule, the digests). */
public record CaseResult(Outcome outcome, String detail) {

  static CaseResult of(Outcome outcome, Throwable t) {
    return new CaseResult(outcome, describe(t));
  }

  /** The exception chain's types and messages and the first frames of the innermost one. */
  static String describe(Throwable t) {
    StringBuilder b = new StringBuilder();
    Throwable root = t;
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      b.append(b.length() == 0 ? "" : " <- ").append(c.getClass().getName()).append(": ").append(c.getMessage());
      root = c;
    }
    // The project's own frames first (where the core trusted the bytes), then the very top.
    StackTraceElement[] stack = root.getStackTrace();
    int ours = 0;
    for (StackTraceElement e : stack) {
      if (e.getClassName().startsWith("io.turboparquet.") && !e.getClassName().startsWith("io.turboparquet.fuzz.")
          && ours++ < 3) {
        b.append("\n    at ").append(e);
      }
    }
    for (int i = 0; i < Math.min(ours == 0 ? 4 : 2, stack.length); i++) {
      b.append("\n    top ").append(stack[i]);
    }
    return b.toString();
  }

  /** The first line of the detail: what a progress line or summary shows. */
  public String headline() {
    int nl = detail.indexOf('\n');
    return nl < 0 ? detail : detail.substring(0, nl);
  }
}
