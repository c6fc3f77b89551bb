package io.turboparquet.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.turboparquet.format.ColumnChunkMeta;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.CompressionCodec;
import io.turboparquet.format.Encoding;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Repetition;
import io.turboparquet.page.ChunkLocation;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one form every error message says where in: "[file] row group 3 column a.b, page at offset 4: what". */
class ErrorContextTest {
  private static final ErrorContext FILE = ErrorContext.of("/data/f.parquet");

  @Test
  void rendersWhatIsKnown() {
    assertEquals("[/data/f.parquet] is not a Parquet file", FILE.message("is not a Parquet file"));
    assertEquals("[/data/f.parquet] row group 3: what", FILE.inRowGroup(3).message("what"));
    assertEquals("[/data/f.parquet] row group 3 column a.b: what", FILE.inRowGroup(3).column("a.b").message("what"));
    assertEquals("[/data/f.parquet] row group 3 column a.b, page at offset 4: what",
        FILE.inRowGroup(3).column("a.b").page(4).message("what"));
    assertEquals("[/data/f.parquet] row group 0 column a, page at offset 0: what",
        FILE.inRowGroup(0).column("a").page(0).message("what"), "0 is a row group and an offset, not 'unknown'");
    assertEquals("[/data/f.parquet] column a.b: what", FILE.column("a.b").message("what"));
    assertEquals("[/data/f.parquet] page at offset 4: what", FILE.page(4).message("what"));
  }

  @Test
  void whereAndToStringLeaveOutTheMessage() {
    ErrorContext page = FILE.inRowGroup(3).column("a.b").page(4);
    assertEquals("row group 3 column a.b, page at offset 4", page.where());
    assertEquals("", FILE.where());
    assertEquals("[/data/f.parquet] row group 3 column a.b, page at offset 4", page.toString());
    assertEquals("[/data/f.parquet]", FILE.toString());
    assertEquals("/data/f.parquet", page.file());
  }

  @Test
  void narrowingLeavesTheOriginalAlone() {
    ErrorContext rowGroup = FILE.inRowGroup(1);
    ErrorContext column = rowGroup.column("x");
    column.page(9);
    assertEquals("row group 1", rowGroup.where());
    assertEquals("row group 1 column x", column.where());
    assertEquals("row group 2 column x", column.inRowGroup(2).where());
  }

  @Test
  void buildsTheExceptionClassesCallersCatch() {
    ErrorContext at = FILE.inRowGroup(0).column("x");
    String expected = "[/data/f.parquet] row group 0 column x: bad";
    Throwable cause = new IllegalStateException("inner");
    IOException io = at.io("bad");
    assertEquals(IOException.class, io.getClass());
    assertEquals(expected, io.getMessage());
    IOException ioCaused = at.io("bad", cause);
    assertEquals(expected, ioCaused.getMessage(), "the cause is attached, not appended");
    assertSame(cause, ioCaused.getCause());
    EOFException eof = at.eof("bad");
    assertEquals(expected, eof.getMessage());
    InterruptedIOException interrupted = at.interrupted("bad");
    assertEquals(expected, interrupted.getMessage());
    assertEquals(expected, at.unsupported("bad").getMessage());
    assertNull(at.unsupported("bad").getCause());
    assertSame(cause, at.unsupported("bad", cause).getCause());
    assertEquals(expected, at.illegalArgument("bad").getMessage());
    assertSame(cause, at.illegalArgument("bad", cause).getCause());
    assertEquals(expected, at.illegalState("bad").getMessage());
  }

  @Test
  void corruptionErrorsUseTheSameForm() {
    ParquetCorruptionException e = new ParquetCorruptionException(FILE.inRowGroup(2).column("x"), "bad");
    assertEquals("[/data/f.parquet] row group 2 column x: bad", e.getMessage());
    assertEquals("[/data/f.parquet] footer: bad", new ParquetCorruptionException("/data/f.parquet", "footer: bad")
        .getMessage(), "a file name is the whole file");
    Exception thrown = assertThrows(ParquetCorruptionException.class,
        () -> ParquetCorruptionException.validate(false, FILE.inRowGroup(1), "%d of %s", 3, "x"));
    assertEquals("[/data/f.parquet] row group 1: 3 of x", thrown.getMessage());
  }

  @Test
  void causeDetailNamesJdkExceptionsOnly() {
    assertEquals("ArrayIndexOutOfBoundsException: Index 5 out of bounds for length 4",
        ErrorContext.causeDetail(new ArrayIndexOutOfBoundsException("Index 5 out of bounds for length 4")));
    assertEquals("a decoder's own words", ErrorContext.causeDetail(new Own("a decoder's own words")));
  }

  @Test
  void chunkLocationRendersThroughIt() {
    ColumnDescriptor column = new ColumnDescriptor(0, List.of("a", "b"), PhysicalType.INT32, 0, Repetition.REQUIRED,
        0, 0, null);
    ChunkLocation location = new ChunkLocation("f.parquet", 3,
        new ColumnChunkMeta(column, CompressionCodec.UNCOMPRESSED, List.of(Encoding.PLAIN), 1, 1, 1, 4, -1));
    assertEquals("row group 3 column a.b", location.describe());
    assertEquals("f.parquet", location.file());
    assertEquals("[f.parquet] row group 3 column a.b, page at offset 4: bad",
        location.corruption(4, "bad", null).getMessage());
    RuntimeException jdk = new IndexOutOfBoundsException("index 9");
    ParquetCorruptionException e = location.corruption(4, "cannot decode", jdk);
    assertEquals("[f.parquet] row group 3 column a.b, page at offset 4: cannot decode: IndexOutOfBoundsException:"
        + " index 9", e.getMessage(), "a JDK exception keeps its class name: a check the decoder lacks");
    assertSame(jdk, e.getCause());
    assertEquals("[f.parquet] row group 3 column a.b, page at offset 4: cannot decode: short run",
        location.corruption(4, "cannot decode", new Own("short run")).getMessage());
  }

  private static final class Own extends RuntimeException {
    Own(String message) {
      super(message);
    }
  }
}
