package io.turboparquet.testing;

import io.turboparquet.fuzz.ParquetJavaDigest;
import java.nio.file.Path;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.PrimitiveType;

/**
 * The child of {@link ParquetJava118}: runs on parquet-java 1.18.1's jars, so it uses only API that
 * 1.15 (which it is compiled against) and 1.18 share.
 */
public final class ParquetJava118Main {
  private ParquetJava118Main() {}

  /** {@code schema|digest FILE...}: per file a line "== FILE", then the command's lines. */
  public static void main(String[] args) throws Exception {
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
}
