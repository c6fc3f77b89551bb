package io.turboparquet.format;

import static io.turboparquet.format.VariantException.check;

import java.nio.charset.StandardCharsets;

/**
 * A Variant metadata (VariantEncoding.md): the header, the dictionary of object keys. Every size
 * and offset is checked against the bytes when parsed, so lookups need no further checks.
 */
public final class VariantMetadata {
  private final byte[] bytes;
  private final int stringsStart;
  private final int[] offsets; // dictionary size + 1, relative to stringsStart, non-decreasing
  private final boolean sorted;
  private final int length;

  private VariantMetadata(byte[] bytes, int stringsStart, int[] offsets, boolean sorted, int length) {
    this.bytes = bytes;
    this.stringsStart = stringsStart;
    this.offsets = offsets;
    this.sorted = sorted;
    this.length = length;
  }

  /** Parses the metadata in {@code b[from, from + length)}; the array is kept, not copied. */
  public static VariantMetadata parse(byte[] b, int from, int length) {
    check(from >= 0 && length >= 1 && (long) from + length <= b.length, "metadata of %d bytes", length);
    int header = b[from] & 0xff;
    check((header & 0x0f) == 1, "metadata version %d (only 1 is defined)", header & 0x0f);
    check((header & 0x20) == 0, "metadata header 0x%02x sets a reserved bit", header);
    int offsetSize = (header >>> 6) + 1;
    long end = (long) from + length;
    check(from + 1L + offsetSize <= end, "metadata of %d bytes ends in its dictionary size", length);
    long size = readUnsigned(b, from + 1, offsetSize);
    // Each dictionary entry takes an offset of offsetSize bytes: the bytes bound the count.
    long offsetsEnd = from + 1L + offsetSize + (size + 1) * offsetSize;
    check(offsetsEnd <= end, "metadata dictionary size %d needs more than its %d bytes", size, length);
    int[] offsets = new int[(int) size + 1];
    long limit = end - offsetsEnd;
    long previous = 0;
    for (int i = 0; i <= size; i++) {
      long o = readUnsigned(b, (int) (from + 1L + offsetSize + (long) i * offsetSize), offsetSize);
      check(o >= previous && o <= limit, "metadata offset %d of key %d is outside [%d, %d]", o, i, previous, limit);
      check(i > 0 || o == 0, "metadata's first offset is %d, not 0", o);
      offsets[i] = (int) o;
      previous = o;
    }
    return new VariantMetadata(b, (int) offsetsEnd, offsets, (header & 0x10) != 0, (int) (offsetsEnd - from + previous));
  }

  /** Unsigned little-endian of {@code size} (1-4) bytes at {@code at}; the caller checked the bounds. */
  static long readUnsigned(byte[] b, int at, int size) {
    long v = 0;
    for (int i = 0; i < size; i++) {
      v |= (long) (b[at + i] & 0xff) << (8 * i);
    }
    return v;
  }

  /** Keys in the dictionary. */
  public int size() {
    return offsets.length - 1;
  }

  /** Bytes the metadata takes (its dictionary's strings end there; later bytes are not its own). */
  public int length() {
    return length;
  }

  public String key(int id) {
    check(id >= 0 && id < size(), "field id %d is outside the metadata's %d keys", id, size());
    return new String(bytes, stringsStart + offsets[id], offsets[id + 1] - offsets[id], StandardCharsets.UTF_8);
  }

  /** The id of {@code key}, or -1 when the dictionary lacks it. */
  public int find(String key) {
    if (sorted) {
      int lo = 0;
      int hi = size() - 1;
      while (lo <= hi) {
        int mid = (lo + hi) >>> 1;
        int c = key(mid).compareTo(key);
        if (c == 0) {
          return mid;
        }
        if (c < 0) {
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      return linear(key); // a writer that set the bit on an unsorted dictionary: still found
    }
    return linear(key);
  }

  private int linear(String key) {
    for (int i = 0; i < size(); i++) {
      if (key(i).equals(key)) {
        return i;
      }
    }
    return -1;
  }
}
