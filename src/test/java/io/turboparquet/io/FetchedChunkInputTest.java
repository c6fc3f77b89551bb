package io.turboparquet.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A chunk fetched in pieces reads exactly like the same bytes in one buffer. */
class FetchedChunkInputTest {
  private static final long START = 1000;

  /** Chunk bytes b[i] = i * 7 (mod 256), cut into pieces of the given sizes. */
  private static FetchedChunkInput input(TrackingBufferSource source, List<ByteBuf> keep, int... sizes) {
    List<ByteBuf> pieces = new ArrayList<>();
    int at = 0;
    for (int size : sizes) {
      ByteBuf piece = source.buffer(size);
      for (int i = 0; i < size; i++) {
        piece.writeByte((at + i) * 7);
      }
      at += size;
      pieces.add(piece);
      keep.add(piece);
    }
    return new FetchedChunkInput("f.parquet", pieces, START, at, source, () -> { }, nanos -> { });
  }

  private static byte[] expected(int from, int n) {
    byte[] out = new byte[n];
    for (int i = 0; i < n; i++) {
      out[i] = (byte) ((from + i) * 7);
    }
    return out;
  }

  private static byte[] bytes(ByteBuf b) {
    byte[] out = new byte[b.readableBytes()];
    b.getBytes(b.readerIndex(), out);
    return out;
  }

  @Test
  void pagesWithinAPieceAreSlicesAndPagesAcrossPiecesAreCopies() throws IOException {
    TrackingBufferSource source = new TrackingBufferSource();
    List<ByteBuf> pieces = new ArrayList<>();
    try (FetchedChunkInput in = input(source, pieces, 64, 32, 16, 5)) {
      long before = source.allocations();
      ByteBuf inFirst = in.getNext(60); // [0, 60): in the first piece
      assertEquals(before, source.allocations(), "a page inside one piece is not copied");
      assertArrayEquals(expected(0, 60), bytes(inFirst));
      ByteBuf across = in.getNext(54); // [60, 114): spans all but the last piece
      assertEquals(before + 1, source.allocations(), "a page across pieces is copied once");
      assertArrayEquals(expected(60, 54), bytes(across));
      assertEquals(START + 114, in.position());
      EOFException past = assertThrows(EOFException.class, () -> in.getNext(4));
      assertTrue(past.getMessage().contains("f.parquet") && past.getMessage().contains("ends at " + (START + 117)),
          past.getMessage());
      ByteBuf last = in.getNext(3);
      assertArrayEquals(expected(114, 3), bytes(last));
      assertEquals(0, in.available());
      assertEquals(0, in.getNext(0).readableBytes());
      inFirst.release();
      across.release();
      last.release();
    }
    for (ByteBuf piece : pieces) {
      assertEquals(0, piece.refCnt(), "closing releases every piece");
    }
    assertEquals(0, source.outstanding());
  }

  @Test
  void headersAreReadAcrossPiecesAndResetGoesBackOverABoundary() throws IOException {
    TrackingBufferSource source = new TrackingBufferSource();
    try (FetchedChunkInput in = input(source, new ArrayList<>(), 10, 10, 10)) {
      assertEquals(9, in.skip(9));
      in.mark(0);
      byte[] header = new byte[13];
      assertEquals(13, in.read(header, 0, 13)); // [9, 22): three pieces
      assertArrayEquals(expected(9, 13), header);
      in.reset();
      for (int i = 9; i < 30; i++) {
        assertEquals(((i * 7) & 0xff), in.read(), "byte " + i);
      }
      assertEquals(-1, in.read());
      assertEquals(-1, in.read(header, 0, 1));
    }
    assertEquals(0, source.outstanding());
  }

  @Test
  void anEmptyChunkHasNoPiecesAndNoBytes() throws IOException {
    TrackingBufferSource source = new TrackingBufferSource();
    try (FetchedChunkInput in = input(source, new ArrayList<>())) {
      assertEquals(-1, in.read());
      assertEquals(0, in.getNext(0).readableBytes());
      assertThrows(EOFException.class, () -> in.getNext(1));
    }
    assertThrows(IllegalArgumentException.class,
        () -> new FetchedChunkInput("f", List.of(), START, 1, source, () -> { }, nanos -> { }));
    ByteBuf empty = source.buffer(0).capacity(0);
    assertThrows(IllegalArgumentException.class,
        () -> new FetchedChunkInput("f", List.of(empty), START, 0, source, () -> { }, nanos -> { }),
        "an empty piece");
    empty.release();
  }
}
