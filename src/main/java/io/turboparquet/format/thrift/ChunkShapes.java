package io.turboparquet.format.thrift;

/**
 * Skips unprojected ColumnChunks of one footer: by the few {@link ChunkShape}s seen most when a
 * chunk has one of them, else by {@link ChunkSkipper}, learning the shape of what it skipped.
 * Learning costs a few skips' worth, so it stops paying for itself in footers whose chunks
 * rarely repeat a shape: it is then limited to one miss in eight hits (plus a start).
 *
 * <p>Binary lengths: a shape skips a binary of the learned length within its compares, and reads
 * the length of a "dynamic" binary from each chunk, which costs more than a failed try of another
 * shape. So a few variants (string bounds of two to four bytes, column names one digit longer
 * from c10 on) each get a shape of their own; once the slots are full or a binary has varied in
 * length often, a new shape that differs from a known one in binary lengths alone widens it into
 * one that reads those lengths from each chunk.
 */
final class ChunkShapes {
  private static final int SLOTS = 8;
  /** Variations of a binary's length after which it is read from each chunk. */
  private static final int VARIED = 8;
  private static final int FREE_LEARNS = 16;
  /** Shapes are not tried once more tries failed than this plus the hits (chunks too varied). */
  private static final int FREE_TRIES = 64;

  /** Most used first (a shape moves up when it has served more chunks in its slot than the one above). */
  private final ChunkShape[] shapes = new ChunkShape[SLOTS];
  private final int[] shapeHits = new int[SLOTS];
  /** Per binary index, how often a new shape differed from a known one in its length alone. */
  private final int[] varied = new int[ChunkShape.MAX_BINARIES];
  private final int maxLength;
  private int hits;
  private int failedTries;
  private int learns;

  ChunkShapes(int maxLength) {
    this.maxLength = maxLength;
  }

  /** Position after the ColumnChunk at {@code b[p]}; as {@link CompactSkipper#skip} with STRUCT. */
  int skip(byte[] b, int p, int limit) {
    for (int i = 0; i < SLOTS && shapes[i] != null && failedTries <= hits + FREE_TRIES; i++) {
      int end = shapes[i].skip(b, p, limit, maxLength);
      if (end >= 0) {
        hits++;
        if (i > 0 && ++shapeHits[i] > shapeHits[i - 1]) {
          swap(i, i - 1);
        }
        return end;
      }
      failedTries++;
    }
    int end = ChunkSkipper.skip(b, p, limit, maxLength);
    if (end >= 0 && learns < FREE_LEARNS + (hits >>> 3)) {
      learns++;
      ChunkShape s = ChunkShape.learn(b, p, end);
      if (s != null) {
        add(s);
      }
    }
    return end;
  }

  private void add(ChunkShape s) {
    int free = -1;
    int similar = -1;
    long lengths = 0;
    for (int i = 0; i < SLOTS; i++) {
      if (shapes[i] == null) {
        free = i;
        break;
      }
      if (similar < 0) {
        lengths = shapes[i].lengthsDiffering(s);
        similar = lengths != 0 ? i : -1;
      }
    }
    if (similar >= 0 && (varies(lengths) || free < 0)) {
      shapes[similar] = shapes[similar].widen(lengths);
    } else {
      free = free >= 0 ? free : SLOTS - 1; // the least used goes
      shapes[free] = s;
      shapeHits[free] = 0;
    }
  }

  /**
   * Counts one more variation of the binaries {@code lengths} (bit k: binary k); true once one of
   * them has varied often enough to read its length from each chunk.
   */
  private boolean varies(long lengths) {
    boolean often = false;
    for (long l = lengths; l != 0; l &= l - 1) {
      int k = Long.numberOfTrailingZeros(l);
      often |= ++varied[k] >= VARIED;
    }
    return often;
  }

  private void swap(int i, int j) {
    ChunkShape s = shapes[i];
    shapes[i] = shapes[j];
    shapes[j] = s;
    int h = shapeHits[i];
    shapeHits[i] = shapeHits[j];
    shapeHits[j] = h;
  }

  /** Chunks skipped by a shape so far: for tests. */
  int hits() {
    return hits;
  }
}
