package io.turboparquet.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static io.turboparquet.format.FooterReader.SPECULATIVE_TAIL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.turboparquet.storage.SlowFileSystem;
import io.turboparquet.storage.StorageCounters;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.TestFileGenerator;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file's frame around the footer: magic numbers and the footer length, checked before use, and
 * the reads it takes (counted by the slow:// harness, without latency): one when the footer is in
 * the speculative tail, two when it is longer.
 */
class FooterReaderTest {
  @TempDir
  Path dir;

  /** The footer bytes readFooterBytes gave, and the read calls it made. */
  private record Read(byte[] footer, List<StorageCounters.Read> reads) {}

  private Read readThroughHarness(Path file) throws IOException {
    Configuration conf = new Configuration();
    try (SlowFileSystem fs = new SlowFileSystem()) {
      fs.initialize(URI.create("slow:///"), conf);
      org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("slow://" + file.toAbsolutePath());
      byte[] footer;
      try (FSDataInputStream in = fs.open(path)) {
        footer = FooterReader.readFooterBytes(in, file.toString(), Files.size(file));
      }
      return new Read(footer, fs.counters().forPath(path.toString()).reads());
    }
  }

  /** PAR1, {@code body} bytes, the footer, its length (as claimed) and PAR1. */
  private Path frame(String name, int body, byte[] footer, int claimedLength) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(4 + body + footer.length + 8).order(ByteOrder.LITTLE_ENDIAN);
    b.put(FooterReader.MAGIC).position(4 + body);
    b.put(footer).putInt(claimedLength).put(FooterReader.MAGIC);
    return Files.write(dir.resolve(name), b.array());
  }

  private static byte[] random(int length) {
    byte[] bytes = new byte[length];
    new Random(length).nextBytes(bytes);
    return bytes;
  }

  @Test
  void aFooterWithinTheTailTakesOneRead() throws IOException {
    Path small = CorpusFiles.file("alltypes_plain.parquet"); // shorter than the tail: read whole
    long length = Files.size(small);
    Read r = readThroughHarness(small);
    assertEquals(List.of(new StorageCounters.Read(0, length)), r.reads());
    byte[] bytes = Files.readAllBytes(small);
    int footerLength = ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    assertArrayEquals(java.util.Arrays.copyOfRange(bytes, bytes.length - 8 - footerLength, bytes.length - 8),
        r.footer());

    // Footers that end the tail exactly, or sit well inside it, in a file far longer than the tail.
    for (int footerLength2 : new int[] {1, 1000, SPECULATIVE_TAIL - 8}) {
      byte[] footer = random(footerLength2);
      Path file = frame("within-" + footerLength2 + ".bin", 3 * SPECULATIVE_TAIL, footer, footer.length);
      long fileLength = Files.size(file);
      Read read = readThroughHarness(file);
      assertArrayEquals(footer, read.footer(), "footer of " + footerLength2);
      assertEquals(List.of(new StorageCounters.Read(fileLength - SPECULATIVE_TAIL, SPECULATIVE_TAIL)), read.reads(),
          "footer of " + footerLength2);
    }
  }

  @Test
  void aFooterLongerThanTheTailTakesOneMoreReadOfItsHead() throws IOException {
    for (int footerLength : new int[] {SPECULATIVE_TAIL - 7, SPECULATIVE_TAIL, 3 * SPECULATIVE_TAIL + 5}) {
      byte[] footer = random(footerLength);
      for (int body : new int[] {0, 1000}) { // the footer starts right after the leading magic, or later
        Path file = frame("long-" + footerLength + "-" + body + ".bin", body, footer, footer.length);
        long fileLength = Files.size(file);
        Read read = readThroughHarness(file);
        assertArrayEquals(footer, read.footer(), "footer of " + footerLength);
        long footerStart = fileLength - 8 - footerLength;
        assertEquals(List.of(new StorageCounters.Read(fileLength - SPECULATIVE_TAIL, SPECULATIVE_TAIL),
            new StorageCounters.Read(footerStart, footerLength - (SPECULATIVE_TAIL - 8))), read.reads(),
            "footer of " + footerLength + " after " + body + " bytes");
      }
    }
  }

  /** A real file whose footer is longer than the tail decodes as parquet-java reads it. */
  @Test
  void aRealFooterLongerThanTheTailDecodes() throws IOException {
    Path file = dir.resolve("wide.parquet");
    TestFileGenerator.wideInt64(file, 1000, 400, 8 * 1024, 64 * 1024, 3);
    long length = Files.size(file);
    FileMetadata meta;
    Read read = readThroughHarness(file);
    assertTrue(read.footer().length > SPECULATIVE_TAIL, "a footer longer than the tail: " + read.footer().length);
    assertEquals(2, read.reads().size(), read.reads().toString());
    try (FSDataInputStream in = FileSystem.getLocal(new Configuration()).open(
        new org.apache.hadoop.fs.Path(file.toUri()))) {
      meta = FooterReader.read(in, file.toString(), length);
    }
    try (ParquetFileReader pj = ParquetFileReader.open(HadoopInputFile.fromPath(
        new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
      assertEquals(pj.getRowGroups().size(), meta.rowGroups().size());
      assertTrue(meta.rowGroups().size() > 1, "several row groups");
      for (int i = 0; i < meta.rowGroups().size(); i++) {
        assertEquals(pj.getRowGroups().get(i).getRowCount(), meta.rowGroups().get(i).numRows());
        assertEquals(pj.getRowGroups().get(i).getColumns().get(999).getFirstDataPageOffset(),
            meta.rowGroups().get(i).column(999).dataPageOffset());
      }
    }
  }

  @Test
  void tinyFiles() throws IOException {
    for (int n = 0; n < 12; n++) {
      Path file = Files.write(dir.resolve("tiny-" + n + ".bin"), java.util.Arrays.copyOf("PAR1".getBytes(), n));
      ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, () -> readThroughHarness(file));
      assertTrue(e.getMessage().contains(n + " bytes is too short"), e.getMessage());
    }
    // 12 bytes: the frame alone, with room for no footer.
    Path empty = frame("empty.bin", 0, new byte[0], 0);
    assertTrue(assertThrows(ParquetCorruptionException.class, () -> readThroughHarness(empty)).getMessage()
        .contains("footer length 0 does not fit in a file of 12 bytes"));
    // 13 bytes: a one-byte footer, the whole file in one read.
    Read one = readThroughHarness(frame("one.bin", 0, new byte[] {42}, 1));
    assertArrayEquals(new byte[] {42}, one.footer());
    assertEquals(List.of(new StorageCounters.Read(0, 13)), one.reads());
  }

  /** Where the tail covers the file, its leading magic is checked at no cost. */
  @Test
  void aFileWithinTheTailMustStartWithTheMagic() throws IOException {
    byte[] bytes = Files.readAllBytes(frame("ok.bin", 100, random(50), 50));
    bytes[0] = 'Q';
    Path file = Files.write(dir.resolve("no-head.bin"), bytes);
    ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, () -> readThroughHarness(file));
    assertTrue(e.getMessage().contains("does not start with PAR1") && e.getMessage().contains(file.toString()),
        e.getMessage());
  }

  /** The length a file claims is checked before anything is allocated or read for it. */
  @Test
  void claimedFooterLengthsAreCheckedBeforeUse() throws IOException {
    for (int body : new int[] {100, 3 * SPECULATIVE_TAIL}) {
      byte[] footer = random(64);
      long fileLength = 4 + body + footer.length + 8;
      for (long claimed : new long[] {0, -1, Integer.MIN_VALUE, fileLength - 11, Integer.MAX_VALUE}) {
        Path file = frame("claims-" + body + "-" + claimed + ".bin", body, footer, (int) claimed);
        ParquetCorruptionException e = assertThrows(ParquetCorruptionException.class, () -> readThroughHarness(file),
            "claimed " + claimed);
        assertTrue(e.getMessage().contains("footer length " + (int) claimed + " does not fit in a file of "
            + fileLength + " bytes"), e.getMessage());
      }
      // The longest footer that fits: everything between the two magics.
      byte[] whole = random(body + footer.length);
      Path file = frame("whole-" + body + ".bin", 0, whole, whole.length);
      assertArrayEquals(whole, readThroughHarness(file).footer());
    }
  }

  @Test
  void encryptedFooterWithoutKeysNamesTheSettingNotCorruption() throws Exception {
    Path file = CorpusFiles.file("encrypted/uniform_encryption.parquet.encrypted");
    io.turboparquet.format.crypto.KeyUnavailableException e = assertThrows(
        io.turboparquet.format.crypto.KeyUnavailableException.class, () -> read(file));
    assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("encrypted footer")
        && e.getMessage().contains("parquet.crypto.factory.class"), e.getMessage());
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
