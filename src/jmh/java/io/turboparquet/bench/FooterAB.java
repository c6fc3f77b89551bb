package io.turboparquet.bench;

import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.thrift.FooterDecoder;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;

/**
 * Two builds of the footer decoder, one JVM: a before/after of a change to a hot path on a
 * machine whose speed drifts by more than the change between runs. Each build is loaded from its
 * own class directory (say a copy of {@code target/classes} before the change, and the one after),
 * so each is compiled by the JIT on its own; batches of 100 decodes alternate between them, and
 * the median of each is printed with its ratio to the first build's. The decode is
 * {@link FooterWritersBenchmark}'s projected one (10 of N columns, with statistics); a mode of
 * {@code full} decodes every chunk with statistics instead.
 *
 * <p>usage: {@code FooterAB FILE projected|full DIR_A DIR_B...}, each DIR a complete
 * {@code target/classes}; the class path (FooterAB's own build) counts the file's leaves and
 * serves the builds' dependencies.
 * One file per JVM: a JIT profile taken on one writer's footers would tilt the next.
 */
public final class FooterAB {
  private static final int WARMUP = 1500;
  private static final int BATCHES = 40;
  private static final int BATCH = 100;

  public static void main(String[] args) throws Exception {
    if (args.length < 4) {
      throw new IllegalArgumentException("usage: FooterAB FILE projected|full DIR_A DIR_B...");
    }
    Path file = Paths.get(args[0]);
    boolean projected = args[1].equals("projected");
    byte[] footer = FooterBenchmarkBase.readFooter(file);
    long length = Files.size(file);
    String name = file.toString();
    // Which leaves are projected is the same for both builds: counted once, by this class path's decoder.
    int[] leaves = FooterBenchmarkBase.projectedLeaves(
        FooterDecoder.decode(name, length, footer, 0, footer.length, FooterOptions.DEFAULT).schema().columns().size());
    int builds = args.length - 2;
    Method[] decode = new Method[builds];
    Object[] options = new Object[builds];
    for (int v = 0; v < builds; v++) {
      ClassLoader loader = new BuildLoader(Paths.get(args[2 + v]).toUri().toURL());
      Class<?> optionsClass = loader.loadClass("io.turboparquet.format.FooterOptions");
      Class<?> selector = loader.loadClass("io.turboparquet.format.FooterOptions$ColumnSelector");
      Object chosen = projected
          ? selector.getMethod("leaves", int[].class).invoke(null, (Object) leaves)
          : selector.getField("ALL").get(null);
      Object o = optionsClass.getField("DEFAULT").get(null);
      if (projected) {
        o = optionsClass.getMethod("withColumns", selector).invoke(o, chosen);
      }
      options[v] = optionsClass.getMethod("withStatistics", selector).invoke(o, chosen);
      decode[v] = loader.loadClass("io.turboparquet.format.thrift.FooterDecoder")
          .getMethod("decode", String.class, long.class, byte[].class, int.class, int.class, optionsClass);
    }
    for (int i = 0; i < WARMUP; i++) {
      for (int v = 0; v < builds; v++) {
        decode[v].invoke(null, name, length, footer, 0, footer.length, options[v]);
      }
    }
    long[][] nanos = new long[builds][BATCHES * BATCH];
    for (int batch = 0; batch < BATCHES; batch++) {
      for (int v = 0; v < builds; v++) {
        for (int i = 0; i < BATCH; i++) {
          long start = System.nanoTime();
          decode[v].invoke(null, name, length, footer, 0, footer.length, options[v]);
          nanos[v][batch * BATCH + i] = System.nanoTime() - start;
        }
      }
    }
    StringBuilder out = new StringBuilder(file.getFileName().toString()).append(' ').append(args[1]);
    double first = 0;
    for (int v = 0; v < builds; v++) {
      long[] sorted = nanos[v].clone();
      Arrays.sort(sorted);
      double median = sorted[sorted.length / 2] / 1e6;
      first = v == 0 ? median : first;
      out.append(String.format("  %s %.3f ms (%.2f)", (char) ('A' + v), median, median / first));
    }
    System.out.println(out);
  }

  /**
   * Our classes from one build's directory, everything else (parquet-java's key types the footer
   * decoder names, the JDK) from FooterAB's own class path: child first for {@code io.turboparquet}.
   */
  private static final class BuildLoader extends URLClassLoader {
    BuildLoader(URL classes) {
      super(new URL[] {classes}, FooterAB.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith("io.turboparquet.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          c = findClass(name);
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }
}
