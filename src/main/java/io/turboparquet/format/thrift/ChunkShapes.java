package io.turboparquet.format.thrift;

/**
 * Skips unprojected ColumnChunks of one footer: by the few {@link ChunkShape}s in use when a
 * chunk has one of them, else by {@link ChunkSkipper}, learning the shape of what it skipped.
 * Learning costs a few skips' worth, so it is limited to one miss in eight hits (plus a start);
 * where chunks rarely repeat a shape, shapes are tried for only one chunk in sixteen, and learned
 * for one miss in sixteen, so a footer that settles later is still caught up with.
 *
 * <p>Binary lengths: a shape skips a binary of the learned length within its compares, and reads
 * the length of a "dynamic" binary from each chunk, which costs more than a failed try of another
 * shape. So a few variants (string bounds of two to four bytes, column names one digit longer
 * from c10 on) each get a shape of their own. Only when the slots are full and new shapes keep
 * coming (less than {@link #RAPID} hits apart) does a new shape that differs from a known one in
 * binary lengths alone widen it into one that reads those lengths from each chunk.
 */
final class ChunkShapes {
  private static final int SLOTS = 8;
  /** Hits between two learns below which learning counts as rapid, see above. */
  private static final int RAPID = 8;
  private static final int FREE_LEARNS = 16;
  /** Beyond this plus the hits, failed tries make shapes rationed too (chunks too varied). */
  private static final int FREE_TRIES = 256;
  /** Over budget, shapes are tried and learned for one chunk in RETRY + 1, to catch up with a footer that settles. */
  private static final int RETRY = 15;

  /**
   * Most used first: a shape moves up when it has served more chunks than the one above (hits are
   * counted below the first slot only, so the first costs no bookkeeping).
   */
  private final ChunkShape[] shapes = new ChunkShape[SLOTS];
  private final int[] shapeHits = new int[SLOTS];
  /** {@link #hits} when each slot last served a chunk: the one unused longest is replaced. */
  private final int[] lastHit = new int[SLOTS];
  private final int maxLength;
  private int hits;
  private int failedTries;
  private int learns;
  private int rationedTries;
  private int rationedLearns;
  private int hitsAtLastLearn = Integer.MIN_VALUE / 2;

  ChunkShapes(int maxLength) {
    this.maxLength = maxLength;
  }

  /** Position after the ColumnChunk at {@code b[p]}; as {@link CompactSkipper#skip} with STRUCT. */
  int skip(byte[] b, int p, int limit) {
    boolean budget = failedTries <= hits + FREE_TRIES;
    if (budget || (++rationedTries & RETRY) == 0) {
      for (int i = 0; i < SLOTS && shapes[i] != null; i++) {
        int end = shapes[i].skip(b, p, limit, maxLength);
        if (end >= 0) {
          lastHit[i] = ++hits;
          if (i > 0 && ++shapeHits[i] > shapeHits[i - 1]) {
            swap(i, i - 1);
          }
          return end;
        }
        if (budget) { // on ration the debt stops growing, so a few hits reopen the budget
          failedTries++;
        }
      }
    }
    int end = ChunkSkipper.skip(b, p, limit, maxLength);
    if (end >= 0 && (learns < FREE_LEARNS + (hits >>> 3) || (++rationedLearns & RETRY) == 0)) {
      learns++;
      ChunkShape s = ChunkShape.learn(b, p, end);
      if (s != null) {
        add(s);
      }
    }
    return end;
  }

  private void add(ChunkShape s) {
    boolean rapid = hits - hitsAtLastLearn < RAPID;
    hitsAtLastLearn = hits;
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
    if (similar >= 0 && rapid && free < 0) {
      shapes[similar] = shapes[similar].widen(lengths);
    } else {
      if (free < 0) { // the one unused longest goes
        free = 0;
        for (int i = 1; i < SLOTS; i++) {
          free = lastHit[i] < lastHit[free] ? i : free;
        }
      }
      shapes[free] = s;
      shapeHits[free] = 0;
      lastHit[free] = hits;
    }
  }

  private void swap(int i, int j) {
    ChunkShape s = shapes[i];
    shapes[i] = shapes[j];
    shapes[j] = s;
    int h = shapeHits[i];
    shapeHits[i] = shapeHits[j];
    shapeHits[j] = h;
    h = lastHit[i];
    lastHit[i] = lastHit[j];
    lastHit[j] = h;
  }

  /** Chunks skipped by a shape so far: for tests. */
  int hits() {
    return hits;
  }
}
