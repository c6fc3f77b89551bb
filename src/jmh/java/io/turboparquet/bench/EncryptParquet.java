package io.turboparquet.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.crypto.FileEncryptionProperties;
import org.apache.parquet.crypto.ParquetCipher;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.rewrite.ParquetRewriter;
import org.apache.parquet.hadoop.rewrite.RewriteOptions;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * {@code EncryptParquet IN OUT AES_GCM_V1|AES_GCM_CTR_V1}: a copy of IN with every column and the
 * footer encrypted under the footer key "0123456789012345" (parquet-java's rewriter), for measuring
 * decryption against the plain file: read it with {@code -D parquet.crypto.factory.class=
 * io.turboparquet.format.crypto.ExplicitKeysFactory -D turbo.parquet.crypto.footer.key=MDEyMzQ1Njc4OTAxMjM0NQ==}.
 */
public final class EncryptParquet {
  private EncryptParquet() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    Path in = new Path(args[0]);
    List<String> columns = new ArrayList<>();
    try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(in, conf))) {
      r.getFileMetaData().getSchema().getColumns().forEach(c -> columns.add(String.join(".", c.getPath())));
    }
    FileEncryptionProperties keys = FileEncryptionProperties.builder(
        "0123456789012345".getBytes(StandardCharsets.US_ASCII)).withAlgorithm(ParquetCipher.valueOf(args[2])).build();
    try (ParquetRewriter rewriter = new ParquetRewriter(new RewriteOptions.Builder(conf, in, new Path(args[1]))
        .encrypt(columns).encryptionProperties(keys).build())) {
      rewriter.processBlocks();
    }
  }
}
