package io.turboparquet.testing;

import io.turboparquet.decode.HalfFloat;
import io.turboparquet.fuzz.ParquetJavaDigest;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType;

/**
 * The child of {@link ParquetJava118}: runs on parquet-java 1.18.1's jars, so it uses only API that
 * 1.15 (which it is compiled against) and 1.18 share.
 */
public final class ParquetJava118Main {
  /** Between the commands of {@code batch}. */
  static final String BATCH_SEPARATOR = "--";
  /** Before each command's output in {@code batch}, followed by its index. */
  static final String BATCH_MARKER = "### parquet-java 1.18.1 command ";

  private ParquetJava118Main() {}

  /**
   * {@code schema|digest FILE...}: per file a line "== FILE", then the command's lines.
   * {@code write-nan FILE}: writes {@link #writeNan}'s file. {@code write-nested-variant FILE shredded|unshredded|invalid}:
   * writes {@link VariantFiles118}'s files; {@code nest-variant-cases DIR FILE...} its nested copies of
   * shredded_variant cases. {@code count FILE FILTER...}: per filter
   * ("column op number" on a FLOAT or DOUBLE column) the rows parquet-java's filtered read returns.
   * {@code batch CMD ARG... -- CMD ARG...}: the commands in turn, each one's output after a line
   * {@link #BATCH_MARKER} and its index (one JVM's start instead of one per command).
   */
  public static void main(String[] args) throws Exception {
    if (args[0].equals("batch")) {
      // batch CMD ARG... -- CMD ARG... : each command in turn in this JVM, its output after a marker line.
      List<String> command = new java.util.ArrayList<>();
      int index = 0;
      for (int i = 1; i <= args.length; i++) {
        if (i == args.length || args[i].equals(BATCH_SEPARATOR)) {
          System.out.println(BATCH_MARKER + index++);
          main(command.toArray(String[]::new));
          command.clear();
        } else {
          command.add(args[i]);
        }
      }
      return;
    }
    if (args[0].equals("write-nan")) {
      writeNan(Path.of(args[1]));
      return;
    }
    if (args[0].equals("nest-variant-cases")) {
      List<Path> files = new java.util.ArrayList<>();
      for (int i = 2; i < args.length; i++) {
        files.add(Path.of(args[i]));
      }
      VariantFiles118.nestCases(Path.of(args[1]), files);
      return;
    }
    if (args[0].equals("write-nested-variant")) {
      if (args[2].equals("invalid")) {
        VariantFiles118.writeInvalidNested(Path.of(args[1]));
      } else {
        VariantFiles118.writeNested(Path.of(args[1]), args[2].equals("shredded"));
      }
      return;
    }
    if (args[0].equals("write-encrypted")) {
      writeEncrypted(Path.of(args[1]), args[2], args[3].equals("plaintext-footer"), args[4]);
      return;
    }
    if (args[0].equals("write-dictionary")) {
      writeDictionary(Path.of(args[1]), args[2], args.length > 3 ? Path.of(args[3]) : null);
      return;
    }
    if (args[0].equals("ids-where")) {
      idsWhere(Path.of(args[1]), args[2].equals("-") ? null : args[2], args[3], args[4]);
      return;
    }
    if (args[0].equals("digest-kms")) {
      digestKms(Path.of(args[1]), args[2]);
      return;
    }
    if (args[0].equals("digest-encrypted")) {
      ParquetJavaDigest.digest(Path.of(args[1]), null, decryption(args.length > 2 ? args[2] : null))
          .forEach(System.out::println);
      return;
    }
    if (args[0].equals("count")) {
      for (int i = 2; i < args.length; i++) {
        System.out.println(count(Path.of(args[1]), args[i]));
      }
      return;
    }
    for (int i = 1; i < args.length; i++) {
      Path file = Path.of(args[i]);
      System.out.println("== " + file);
      switch (args[0]) {
        case "digest" -> ParquetJavaDigest.digest(file, null).forEach(System.out::println);
        case "schema" -> {
          try (ParquetFileReader reader = ParquetJavaDigest.open(file, false)) {
            for (ColumnDescriptor c : reader.getFileMetaData().getSchema().getColumns()) {
              PrimitiveType t = c.getPrimitiveType();
              System.out.println(String.join(".", c.getPath()) + "\t" + t.getLogicalTypeAnnotation() + "\t"
                  + t.columnOrder().getColumnOrderName());
            }
          }
        }
        default -> throw new IllegalArgumentException("unknown command " + args[0]);
      }
    }
  }

  /**
   * 4,000 rows of an id, a FLOAT, a DOUBLE and a FLOAT16 column (the DOUBLE's values, rounded) in row groups of about 500 rows and pages of
   * at most 50, without dictionaries, as 1.18.1 writes them by default otherwise (IEEE 754 column
   * order, nan_count, page indexes). Row groups of numbers only, of numbers and NaN, of NaN only, of
   * NaN and nulls; numbers on both sides of the tests' constants.
   */
  static void writeNan(Path file) throws Exception {
    MessageType schema = MessageTypeParser.parseMessageType(
        "message m { required int32 id; optional float f; optional double d; "
            + "optional fixed_len_byte_array(2) h (FLOAT16); }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    java.util.SplittableRandom random = new java.util.SplittableRandom(118);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
        .withConf(new Configuration()).withType(schema).withDictionaryEncoding(false).withPageRowCountLimit(50)
        .withRowGroupSize(6 * 1024).withPageSize(1024).build()) {
      for (int i = 0; i < 4_000; i++) {
        int kind = i / 500 % 4; // 0 numbers, 1 numbers and NaN, 2 NaN only, 3 NaN and nulls
        Group g = groups.newGroup();
        g.add("id", i);
        double v = (random.nextInt(2_001) - 1_000) / 100.0; // -10 .. 10
        boolean nan = kind == 2 || kind == 3 && random.nextBoolean() || kind == 1 && random.nextInt(8) == 0;
        boolean isNull = kind == 3 && !nan || i % 97 == 3;
        if (!isNull) {
          g.add("f", nan ? Float.NaN : (float) v);
          g.add("d", nan ? Double.NaN : v + (kind == 0 ? 0 : 20)); // row groups apart, so that bounds decide
          g.add("h", half(nan ? Double.NaN : v + (kind == 0 ? 0 : 20))); // d to the nearest half
        }
        w.write(g);
      }
    }
  }

  static final byte[] FOOTER_KEY = "0123456789012345".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  static final byte[] VALUE_KEY = "1234567890123450".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  static final byte[] NAME_KEY = "1234567890123451".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /**
   * 20,000 rows (id, value DOUBLE, name STRING with a dictionary, tags LIST of INT64) in row groups of
   * about 64 KiB and pages of at most 500 rows, with page indexes and a bloom filter on id and name,
   * encrypted: {@code algorithm} AES_GCM_V1 or AES_GCM_CTR_V1; value and name with keys of their
   * own, the other columns with the footer key; {@code aad} "none", "stored" (prefix "turbo") or
   * "supplied" (the prefix not stored).
   */
  static void writeEncrypted(Path file, String algorithm, boolean plaintextFooter, String aad) throws Exception {
    MessageType schema = MessageTypeParser.parseMessageType("message m { required int32 id; optional double value; "
        + "optional binary name (STRING); optional group tags (LIST) { repeated group list { optional int64 element; } } }");
    java.util.Map<org.apache.parquet.hadoop.metadata.ColumnPath, org.apache.parquet.crypto.ColumnEncryptionProperties>
        columns = new java.util.HashMap<>();
    columns.put(org.apache.parquet.hadoop.metadata.ColumnPath.get("value"), org.apache.parquet.crypto
        .ColumnEncryptionProperties.builder("value").withKey(VALUE_KEY).withKeyID("kc1").build());
    columns.put(org.apache.parquet.hadoop.metadata.ColumnPath.get("name"), org.apache.parquet.crypto
        .ColumnEncryptionProperties.builder("name").withKey(NAME_KEY).withKeyID("kc2").build());
    org.apache.parquet.crypto.FileEncryptionProperties.Builder b = org.apache.parquet.crypto.FileEncryptionProperties
        .builder(FOOTER_KEY).withFooterKeyID("kf").withAlgorithm(org.apache.parquet.crypto.ParquetCipher
            .valueOf(algorithm)).withEncryptedColumns(columns).withCompleteColumnEncryption();
    if (plaintextFooter) {
      b.withPlaintextFooter();
    }
    if (!aad.equals("none")) {
      b.withAADPrefix("turbo".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      if (aad.equals("supplied")) {
        b.withoutAADPrefixStorage();
      }
    }
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    java.util.SplittableRandom random = new java.util.SplittableRandom(35);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
        .withConf(new Configuration()).withType(schema).withEncryption(b.build()).withPageRowCountLimit(500)
        .withRowGroupSize(64 * 1024).withPageSize(4096).withBloomFilterEnabled("id", true)
        .withBloomFilterEnabled("name", true).build()) {
      for (int i = 0; i < 20_000; i++) {
        Group g = groups.newGroup();
        g.add("id", i * 2); // even ids: an odd one is in range and absent
        if (i % 11 != 3) {
          g.add("value", random.nextInt(100_000) / 8.0);
        }
        if (i % 13 != 5) {
          g.add("name", "name-" + random.nextInt(300));
        }
        Group tags = g.addGroup("tags");
        for (int t = 0; t < i % 4; t++) {
          tags.addGroup("list").append("element", (long) i * t);
        }
        w.write(g);
      }
    }
  }

  /**
   * {@code algorithm} "plain": 20,000 rows (id, category STRING: "c" + id / 700, so each row group
   * holds a few categories) in row groups of about 8 KiB, dictionary-encoded, without bloom filters:
   * a category's equality is decided by dictionaries alone. Else (AES_GCM_V1 or AES_GCM_CTR_V1) the
   * plain file {@code plain} encrypted by 1.18.1's rewriter, which keeps its row groups and pages:
   * an encrypted footer, category under a key of its own (the name key), id under the footer key.
   */
  static void writeDictionary(Path file, String algorithm, Path plain) throws Exception {
    if (!algorithm.equals("plain")) {
      java.util.Map<org.apache.parquet.hadoop.metadata.ColumnPath, org.apache.parquet.crypto.ColumnEncryptionProperties>
          columns = new java.util.HashMap<>();
      columns.put(org.apache.parquet.hadoop.metadata.ColumnPath.get("category"), org.apache.parquet.crypto
          .ColumnEncryptionProperties.builder("category").withKey(NAME_KEY).withKeyID("kc2").build());
      org.apache.parquet.crypto.FileEncryptionProperties keys = org.apache.parquet.crypto.FileEncryptionProperties
          .builder(FOOTER_KEY).withFooterKeyID("kf").withAlgorithm(org.apache.parquet.crypto.ParquetCipher
              .valueOf(algorithm)).withEncryptedColumns(columns).withCompleteColumnEncryption().build();
      try (org.apache.parquet.hadoop.rewrite.ParquetRewriter rewriter = new org.apache.parquet.hadoop.rewrite
          .ParquetRewriter(new org.apache.parquet.hadoop.rewrite.RewriteOptions.Builder(new Configuration(),
              new org.apache.hadoop.fs.Path(plain.toUri()), new org.apache.hadoop.fs.Path(file.toUri()))
              .encrypt(java.util.List.of("id", "category")).encryptionProperties(keys).build())) {
        rewriter.processBlocks();
      }
      return;
    }
    MessageType schema = MessageTypeParser.parseMessageType(
        "message m { required int32 id; optional binary category (STRING); }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
        .withConf(new Configuration()).withType(schema).withDictionaryEncoding(true).withPageRowCountLimit(500)
        .withRowGroupSize(8 * 1024).withPageSize(2048).build()) {
      for (int i = 0; i < 20_000; i++) {
        Group g = groups.newGroup();
        g.add("id", i);
        if (i % 9 != 4) {
          g.add("category", "c" + i / 700);
        }
        w.write(g);
      }
    }
  }

  /**
   * The ids of the rows where STRING {@code column} is one of {@code values} (comma-separated), one a
   * line, as 1.18.1's filtered read of {@code file} returns them (writeEncrypted's keys unless
   * {@code aadPrefix} is null and the file is plain: then none).
   */
  static void idsWhere(Path file, String aadPrefix, String column, String values) throws Exception {
    org.apache.parquet.filter2.predicate.FilterPredicate predicate = null;
    for (String v : values.split(",")) {
      FilterPredicate eq = FilterApi.eq(FilterApi.binaryColumn(column), Binary.fromString(v));
      predicate = predicate == null ? eq : FilterApi.or(predicate, eq);
    }
    Configuration conf = new Configuration();
    try (ParquetReader<Group> r = ParquetReader.builder(new GroupReadSupport(), new org.apache.hadoop.fs.Path(
        file.toUri())).withConf(conf).withDecryption(aadPrefix == null ? null : decryption(aadPrefix.isEmpty() ? null
        : aadPrefix)).withFilter(FilterCompat.get(predicate)).build()) {
      for (Group g; (g = r.read()) != null; ) {
        System.out.println(g.getInteger("id", 0));
      }
    }
  }

  /**
   * The digest lines of {@code file} as 1.18.1 reads it with the keys its own
   * PropertiesDrivenCryptoFactory finds (key material beside the file or in it) through its test KMS,
   * InMemoryKMS, holding the master keys {@code keyList} ("id: base64, ...").
   */
  static void digestKms(Path file, String keyList) throws Exception {
    Configuration conf = new Configuration();
    conf.set("parquet.crypto.factory.class", "org.apache.parquet.crypto.keytools.PropertiesDrivenCryptoFactory");
    conf.set("parquet.encryption.kms.client.class", "org.apache.parquet.crypto.keytools.mocks.InMemoryKMS");
    conf.set("parquet.encryption.key.list", keyList);
    org.apache.parquet.crypto.FileDecryptionProperties keys = org.apache.parquet.crypto.DecryptionPropertiesFactory
        .loadFactory(conf).getFileDecryptionProperties(conf, new org.apache.hadoop.fs.Path(file.toUri()));
    ParquetJavaDigest.digest(file, null, keys).forEach(System.out::println);
  }

  /** The keys {@link #writeEncrypted} and {@link #writeDictionary} use, with {@code aadPrefix} (null: none) given. */
  static org.apache.parquet.crypto.FileDecryptionProperties decryption(String aadPrefix) {
    java.util.Map<org.apache.parquet.hadoop.metadata.ColumnPath, org.apache.parquet.crypto.ColumnDecryptionProperties>
        columns = new java.util.HashMap<>();
    columns.put(org.apache.parquet.hadoop.metadata.ColumnPath.get("value"), org.apache.parquet.crypto
        .ColumnDecryptionProperties.builder("value").withKey(VALUE_KEY).build());
    columns.put(org.apache.parquet.hadoop.metadata.ColumnPath.get("name"), org.apache.parquet.crypto
        .ColumnDecryptionProperties.builder("name").withKey(NAME_KEY).build());
    columns.put(org.apache.parquet.hadoop.metadata.ColumnPath.get("category"), org.apache.parquet.crypto
        .ColumnDecryptionProperties.builder("category").withKey(NAME_KEY).build()); // writeDictionary's
    org.apache.parquet.crypto.FileDecryptionProperties.Builder b = org.apache.parquet.crypto.FileDecryptionProperties
        .builder().withFooterKey(FOOTER_KEY).withColumnKeys(columns);
    if (aadPrefix != null) {
      b.withAADPrefix(aadPrefix.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }
    return b.build();
  }

  /** The little-endian bytes of the half-precision value nearest {@code v}. */
  private static Binary half(double v) {
    short h = HalfFloat.nearest(v);
    return Binary.fromConstantByteArray(new byte[] {(byte) h, (byte) (h >> 8)});
  }

  static long count(Path file, String filter) throws Exception {
    String[] p = filter.split(" ");
    FilterPredicate predicate = switch (p[0]) {
      case "f" -> compare(FilterApi.floatColumn(p[0]), Float.parseFloat(p[2]), p[1]);
      case "h" -> compare(FilterApi.binaryColumn(p[0]), half(Double.parseDouble(p[2])), p[1]); // its type's order
      default -> compare(FilterApi.doubleColumn(p[0]), Double.parseDouble(p[2]), p[1]);
    };
    long n = 0;
    try (ParquetReader<Group> r = ParquetReader.builder(new GroupReadSupport(), new org.apache.hadoop.fs.Path(
        file.toUri())).withConf(new Configuration()).withFilter(FilterCompat.get(predicate)).build()) {
      while (r.read() != null) {
        n++;
      }
    }
    return n;
  }

  private static <T extends Comparable<T>, C extends Operators.Column<T> & Operators.SupportsLtGt> FilterPredicate
      compare(C column, T value, String op) {
    return switch (op) {
      case "=" -> FilterApi.eq(column, value);
      case "<>" -> FilterApi.notEq(column, value);
      case "<" -> FilterApi.lt(column, value);
      case "<=" -> FilterApi.ltEq(column, value);
      case ">" -> FilterApi.gt(column, value);
      default -> FilterApi.gtEq(column, value);
    };
  }
}
