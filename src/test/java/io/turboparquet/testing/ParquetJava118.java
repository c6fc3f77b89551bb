package io.turboparquet.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * parquet-java 1.18.1 as an oracle, in a JVM of its own ({@link ParquetJava118Main} on the jars of
 * {@code parquet-java-home/pom.xml}): it reads what Drill's parquet-java 1.15 cannot (GEOMETRY
 * columns) and writes what 1.15 does not (IEEE 754 column orders with NaN counts).
 */
public final class ParquetJava118 {
  private static final Path POM = Paths.get(System.getProperty("turbo.parquet.parquet.java.home.pom",
      "parquet-java-home/pom.xml"));

  private ParquetJava118() {}

  /** Per file, the digest lines of DESIGN.md's contract for every leaf, as 1.18.1 reads it. */
  public static Map<Path, List<String>> digest(List<Path> files) throws Exception {
    return perFile(files, run(perFileArgs("digest", files)));
  }

  /** Per file, one line per leaf: "dotted.path<TAB>logical type as 1.18.1 prints it<TAB>column order". */
  public static Map<Path, List<String>> schema(List<Path> files) throws Exception {
    return perFile(files, run(perFileArgs("schema", files)));
  }

  /** {@link #schema} and {@link #digest} of the same files from one child JVM. */
  public static List<Map<Path, List<String>>> schemaAndDigest(List<Path> files) throws Exception {
    List<List<String>> out = runAll(List.of(perFileArgs("schema", files), perFileArgs("digest", files)));
    return List.of(perFile(files, out.get(0)), perFile(files, out.get(1)));
  }

  private static String[] perFileArgs(String command, List<Path> files) {
    List<String> args = new ArrayList<>(List.of(command));
    files.forEach(f -> args.add(f.toAbsolutePath().toString()));
    return args.toArray(String[]::new);
  }

  private static Map<Path, List<String>> perFile(List<Path> files, List<String> lines) {
    Map<Path, List<String>> out = new LinkedHashMap<>();
    List<String> current = null;
    for (String line : lines) {
      if (line.startsWith("== ")) {
        current = new ArrayList<>();
        out.put(Path.of(line.substring(3)), current);
      } else {
        current.add(line);
      }
    }
    assertEquals(files.size(), out.size(), "files answered");
    return out;
  }

  /** Writes ParquetJava118Main.writeNan's file (IEEE 754 order, NaN counts, page indexes) to {@code file}. */
  public static void writeNan(Path file) throws Exception {
    run(writeNanArgs(file));
  }

  public static String[] writeNanArgs(Path file) {
    return new String[] {"write-nan", file.toAbsolutePath().toString()};
  }

  /** Writes {@link NestedVariantRows}' rows to {@code file} with parquet-java's Variant writer, shredded or not. */
  public static void writeNestedVariant(Path file, boolean shredded) throws Exception {
    run(writeNestedVariantArgs(file, shredded));
  }

  public static String[] writeNestedVariantArgs(Path file, boolean shredded) {
    return new String[] {"write-nested-variant", file.toAbsolutePath().toString(), shredded ? "shredded" : "unshredded"};
  }

  /** Writes into {@code dir} VariantFiles118.nestCases' copy of each shredded_variant case file, nested in a struct and a list. */
  public static void nestVariantCases(Path dir, List<Path> caseFiles) throws Exception {
    run(nestVariantCasesArgs(dir, caseFiles));
  }

  public static String[] nestVariantCasesArgs(Path dir, List<Path> caseFiles) {
    List<String> args = new ArrayList<>(List.of("nest-variant-cases", dir.toAbsolutePath().toString()));
    caseFiles.forEach(f -> args.add(f.toAbsolutePath().toString()));
    return args.toArray(String[]::new);
  }

  /** Writes VariantFiles118.writeInvalidNested's file: a nested VARIANT whose second row is not a valid Variant. */
  public static void writeInvalidNestedVariant(Path file) throws Exception {
    run(writeInvalidNestedVariantArgs(file));
  }

  public static String[] writeInvalidNestedVariantArgs(Path file) {
    return new String[] {"write-nested-variant", file.toAbsolutePath().toString(), "invalid"};
  }

  /**
   * Writes ParquetJava118Main.writeEncrypted's file: {@code algorithm} AES_GCM_V1 or AES_GCM_CTR_V1,
   * {@code aad} none, stored or supplied.
   */
  public static void writeEncrypted(Path file, String algorithm, boolean plaintextFooter, String aad)
      throws Exception {
    run(writeEncryptedArgs(file, algorithm, plaintextFooter, aad));
  }

  public static String[] writeEncryptedArgs(Path file, String algorithm, boolean plaintextFooter, String aad) {
    return new String[] {"write-encrypted", file.toAbsolutePath().toString(), algorithm,
        plaintextFooter ? "plaintext-footer" : "encrypted-footer", aad};
  }

  /** Writes ParquetJava118Main.writeDictionary's plain file. */
  public static void writeDictionary(Path file) throws Exception {
    run(writeDictionaryArgs(file));
  }

  public static String[] writeDictionaryArgs(Path file) {
    return new String[] {"write-dictionary", file.toAbsolutePath().toString(), "plain"};
  }

  /** Encrypts writeDictionary's {@code plain} file into {@code file}: AES_GCM_V1 or AES_GCM_CTR_V1, row groups kept. */
  public static void encryptDictionary(Path plain, Path file, String algorithm) throws Exception {
    run(encryptDictionaryArgs(plain, file, algorithm));
  }

  public static String[] encryptDictionaryArgs(Path plain, Path file, String algorithm) {
    return new String[] {"write-dictionary", file.toAbsolutePath().toString(), algorithm, plain.toAbsolutePath().toString()};
  }

  /**
   * The ids (INT32 column "id") of the rows of {@code file} whose STRING {@code column} is one of
   * {@code values}, as 1.18.1's filtered read returns them; {@code encrypted}: with writeEncrypted's keys.
   */
  public static List<Integer> idsWhere(Path file, boolean encrypted, String column, List<String> values)
      throws Exception {
    return ids(run(idsWhereArgs(file, encrypted, column, values)));
  }

  public static String[] idsWhereArgs(Path file, boolean encrypted, String column, List<String> values) {
    return new String[] {"ids-where", file.toAbsolutePath().toString(), encrypted ? "" : "-", column,
        String.join(",", values)};
  }

  /** The output of an {@link #idsWhereArgs} command. */
  public static List<Integer> ids(List<String> lines) {
    return lines.stream().map(Integer::parseInt).toList();
  }

  /**
   * The digest lines 1.18.1 reads from {@code file} with its PropertiesDrivenCryptoFactory and test
   * KMS (InMemoryKMS) holding the master keys {@code keyList} ("id: base64, ...").
   */
  public static List<String> digestKms(Path file, String keyList) throws Exception {
    return run("digest-kms", file.toAbsolutePath().toString(), keyList);
  }

  /** The digest lines 1.18.1 reads from writeEncrypted's {@code file} with its keys and {@code aadPrefix} (or null). */
  public static List<String> digestEncrypted(Path file, String aadPrefix) throws Exception {
    return run(digestEncryptedArgs(file, aadPrefix));
  }

  public static String[] digestEncryptedArgs(Path file, String aadPrefix) {
    return aadPrefix == null ? new String[] {"digest-encrypted", file.toAbsolutePath().toString()}
        : new String[] {"digest-encrypted", file.toAbsolutePath().toString(), aadPrefix};
  }

  /** Per filter ("column op number"), the rows parquet-java 1.18.1's filtered read of {@code file} returns. */
  public static List<Long> count(Path file, List<String> filters) throws Exception {
    return counts(run(countArgs(file, filters)));
  }

  public static String[] countArgs(Path file, List<String> filters) {
    List<String> args = new ArrayList<>(List.of("count", file.toAbsolutePath().toString()));
    args.addAll(filters);
    return args.toArray(String[]::new);
  }

  /** The output of a {@link #countArgs} command. */
  public static List<Long> counts(List<String> lines) {
    return lines.stream().map(Long::parseLong).toList();
  }

  /**
   * Runs the commands (the {@code ...Args} methods' arrays) in turn in one child JVM, so that a test
   * with several pays one JVM's start; each command's standard output's lines, in order.
   */
  public static List<List<String>> runAll(List<String[]> commands) throws Exception {
    List<String> args = new ArrayList<>(List.of("batch"));
    for (String[] command : commands) {
      if (args.size() > 1) {
        args.add(ParquetJava118Main.BATCH_SEPARATOR);
      }
      for (String arg : command) {
        assertTrue(!arg.equals(ParquetJava118Main.BATCH_SEPARATOR), "an argument is the batch separator");
        args.add(arg);
      }
    }
    List<List<String>> out = new ArrayList<>();
    for (String line : run(args.toArray(String[]::new))) {
      if (line.startsWith(ParquetJava118Main.BATCH_MARKER)) {
        assertEquals(out.size(), Integer.parseInt(line.substring(ParquetJava118Main.BATCH_MARKER.length())));
        out.add(new ArrayList<>());
      } else {
        out.get(out.size() - 1).add(line);
      }
    }
    assertEquals(commands.size(), out.size(), "commands answered");
    return out;
  }

  /** Runs the child with {@code args}; its standard output's lines. */
  public static List<String> run(String... args) throws Exception {
    List<Path> jars = MavenClasspath.of(POM, "parquet-java-home");
    assertTrue(jars.stream().anyMatch(j -> j.getFileName().toString().equals("parquet-hadoop-1.18.1.jar")),
        jars.toString());
    List<String> classpath = new ArrayList<>();
    // log4j stays unconfigured: parquet-hadoop's tests jar (InMemoryKMS) has a log4j.properties that logs to stdout.
    // The tests' and tools' classes (ParquetJavaDigest) first, compiled against 1.15's API that 1.18 keeps.
    classpath.add(classesOf(ParquetJava118Main.class));
    classpath.add(classesOf(io.turboparquet.fuzz.ParquetJavaDigest.class));
    classpath.add(classesOf(io.turboparquet.decode.HalfFloat.class)); // the one half-precision conversion
    jars.forEach(j -> classpath.add(j.toString()));
    // C1 only: a short-lived child whose work is mostly class loading and one pass over small files
    // (write-dictionary 5.9 s -> 2.8 s, nest-variant-cases of the 137 cases 17.2 s -> 13.0 s).
    List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-XX:TieredStopAtLevel=1", "-Dlog4j.defaultInitOverride=true", "-cp", String.join(File.pathSeparator, classpath), ParquetJava118Main.class.getName()));
    command.addAll(List.of(args));
    Path err = Files.createTempFile("parquet-java-118", ".err");
    try {
      Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
      byte[] out = p.getInputStream().readAllBytes();
      assertTrue(p.waitFor(2, TimeUnit.MINUTES), "parquet-java 1.18.1 timed out: " + String.join(" ", args));
      assertEquals(0, p.exitValue(), () -> "parquet-java 1.18.1 " + String.join(" ", args) + ": " + read(err));
      String text = new String(out, StandardCharsets.UTF_8);
      return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    } finally {
      Files.deleteIfExists(err);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (Exception e) {
      return "(" + e + ")";
    }
  }

  private static String classesOf(Class<?> c) throws Exception {
    return Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}
