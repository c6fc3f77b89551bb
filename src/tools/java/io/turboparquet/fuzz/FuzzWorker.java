package io.turboparquet.fuzz;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The child JVM of {@link ChildProcessCampaign}: runs cases and reports each on stdout, one line
 * each, before and after it runs ({@code BEGIN i}, {@code RESULT i OUTCOME headline},
 * {@code REPRO i path}), so that when this JVM dies the parent knows which case killed it. Exits
 * after a hang, whose threads may still be running, or an OOM, after which it may not be sound.
 *
 * <p>Arguments: seed from to millis out timeoutMillis generatedDir corpusDir...
 */
public final class FuzzWorker {
  private FuzzWorker() {}

  public static void main(String[] args) {
    // The protocol owns stdout; anything else the core or its libraries print goes to stderr.
    PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    System.setOut(System.err);
    long seed = Long.parseLong(args[0]);
    long from = Long.parseLong(args[1]);
    long to = Long.parseLong(args[2]);
    long deadline = System.nanoTime() + Long.parseLong(args[3]) * 1_000_000;
    Path out = Paths.get(args[4]);
    long timeout = Long.parseLong(args[5]);
    Path generated = Paths.get(args[6]);
    List<Path> corpora = new ArrayList<>();
    for (int i = 7; i < args.length; i++) {
      corpora.add(Paths.get(args[i]));
    }
    try (FuzzCampaign campaign = new FuzzCampaign(
        FuzzCampaign.seeds(corpora, generated, ChildProcessCampaign::prefix), out, timeout)) {
      campaign.run(seed, from, to, deadline, true, new FuzzCampaign.Listener() {
        @Override
        public void begin(long index, FuzzCase c) {
          protocol.println("BEGIN " + index);
        }

        @Override
        public void result(long index, FuzzCase c, CaseResult r) {
          // Messages quote file bytes: control characters would break the line protocol.
          protocol.println("RESULT " + index + " " + r.outcome() + " " + r.headline().replaceAll("\\p{Cntrl}", "?"));
        }

        @Override
        public void reproducer(long index, Path file) {
          protocol.println("REPRO " + index + " " + file);
        }
      });
    }
    protocol.println("END");
    System.exit(0); // a hung case's threads must not keep this JVM alive
  }
}
