package io.turboparquet.fuzz;

import io.turboparquet.scan.ScanOptions;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * How the scan core reads a fuzz case, rotated over the paths a hostile file can take: sync or
 * async page reads, coalesced or chunk by chunk, buffered or direct, tiny buffers, batch size 1,
 * checksum verification, decode-ahead, and a footer decoded whole or projected.
 *
 * @param footerStride 0: the footer decoded whole and every column read; s &gt; 1: only the chunks
 *     of every s-th leaf (0, s, 2s, ...) decoded and read, the others skipped undecoded
 */
public record ReadMode(boolean parallel, boolean coalesced, boolean buffered, int bufferSize, int batchSize,
    boolean verifyChecksums, boolean decodeAhead, int queueDepth, int footerStride) {

  private static final int[] BUFFER_SIZES = {1, 7, 64, 4096, 1 << 20};
  private static final int[] BATCH_SIZES = {1, 7, 100, 32_768};
  private static final int[] FOOTER_STRIDES = {0, 0, 2, 3};

  static ReadMode draw(long caseSeed) {
    SplittableRandom r = new SplittableRandom(caseSeed ^ 0x2545F4914F6CDD1DL);
    boolean parallel = r.nextBoolean();
    // Batch size 1 costs a batch per row: a quarter as often as the others together.
    int batch = r.nextInt(8) == 0 ? 1 : BATCH_SIZES[1 + r.nextInt(BATCH_SIZES.length - 1)];
    return new ReadMode(parallel, r.nextBoolean(), r.nextBoolean(), BUFFER_SIZES[r.nextInt(BUFFER_SIZES.length)],
        batch, r.nextBoolean(), parallel && r.nextBoolean(), 1 + r.nextInt(2),
        FOOTER_STRIDES[r.nextInt(FOOTER_STRIDES.length)]);
  }

  /** Whether leaf {@code index} is read (and its chunks decoded from the footer). */
  public boolean reads(int index) {
    return footerStride == 0 || index % footerStride == 0;
  }

  public ScanOptions options() {
    return ScanOptions.builder()
        .scanThreads(2).decodeThreads(2)
        .asyncPageReads(parallel).parallelDecode(parallel).decodeAhead(decodeAhead)
        .coalescedReads(coalesced).bufferedReads(buffered).bufferSize(bufferSize)
        .batchSize(batchSize).verifyChecksums(verifyChecksums).queueDepth(queueDepth)
        .build();
  }

  /** The fields by name, for a reproducer's properties. */
  Map<String, String> toProperties() {
    Map<String, String> m = new TreeMap<>();
    m.put("read.parallel", Boolean.toString(parallel));
    m.put("read.coalesced", Boolean.toString(coalesced));
    m.put("read.buffered", Boolean.toString(buffered));
    m.put("read.bufferSize", Integer.toString(bufferSize));
    m.put("read.batchSize", Integer.toString(batchSize));
    m.put("read.verifyChecksums", Boolean.toString(verifyChecksums));
    m.put("read.decodeAhead", Boolean.toString(decodeAhead));
    m.put("read.queueDepth", Integer.toString(queueDepth));
    m.put("read.footerStride", Integer.toString(footerStride));
    return m;
  }

  static ReadMode fromProperties(Map<String, String> m) {
    return new ReadMode(Boolean.parseBoolean(m.get("read.parallel")), Boolean.parseBoolean(m.get("read.coalesced")),
        Boolean.parseBoolean(m.get("read.buffered")), Integer.parseInt(m.get("read.bufferSize")),
        Integer.parseInt(m.get("read.batchSize")), Boolean.parseBoolean(m.get("read.verifyChecksums")),
        Boolean.parseBoolean(m.get("read.decodeAhead")), Integer.parseInt(m.get("read.queueDepth")),
        Integer.parseInt(m.getOrDefault("read.footerStride", "0"))); // reproducers from before it read whole
  }
}
