package io.turboparquet.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.testing.CorpusFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file's frame around the footer: magic numbers and the footer length. */
class FooterReaderTest {

  @Test
  void encryptedFooterIsUnsupportedNotCorrupt(@TempDir Path dir) throws Exception {
    byte[] bytes = Files.readAllBytes(CorpusFiles.file("alltypes_plain.parquet"));
    bytes[bytes.length - 1] = 'E'; // PAR1 -> PARE: the magic of an encrypted footer
    Path file = Files.write(dir.resolve("encrypted.parquet"), bytes);
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> read(file));
    assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("encrypt"), e.getMessage());
  }

  @Test
  void otherMagicIsNotParquet(@TempDir Path dir) throws Exception {
    byte[] bytes = Files.readAllBytes(CorpusFiles.file("alltypes_plain.parquet"));
    bytes[bytes.length - 1] = 'X';
    Path file = Files.write(dir.resolve("other.parquet"), bytes);
    ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, () -> read(file));
    assertTrue(e.getMessage().contains("does not end with PAR1"), e.getMessage());
  }

  @Test
  void intactFileReads() throws Exception {
    assertEquals(8, read(CorpusFiles.file("alltypes_plain.parquet")).rowGroups().get(0).numRows());
  }

  private static FileMetadata read(Path file) throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
    try (FSDataInputStream in = fs.open(path)) {
      return FooterReader.read(in, file.toString(), fs.getFileStatus(path).getLen());
    }
  }
}
