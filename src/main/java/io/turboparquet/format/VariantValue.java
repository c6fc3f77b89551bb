package io.turboparquet.format;

import static io.turboparquet.format.VariantMetadata.readUnsigned;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A Variant value (VariantEncoding.md) inside a byte array, checked in full when made: every
 * header, size, offset and field id lies within the bytes and the metadata, objects' keys are
 * unique and sorted, nesting is bounded. Accessors therefore index without further checks.
 */
public final class VariantValue {
  public static final int PRIMITIVE = 0;
  public static final int SHORT_STRING = 1;
  public static final int OBJECT = 2;
  public static final int ARRAY = 3;
  /** Nesting beyond this is refused: recursion stays far from any thread's stack limit. */
  static final int MAX_DEPTH = 256;
  /** Bytes of each primitive type id's payload after the header; -1: variable (4-byte length). */
  private static final int[] PRIMITIVE_SIZE = {0, 0, 0, 1, 2, 4, 8, 8, 5, 9, 17, 4, 8, 8, 4, -1, -1, 8, 8, 8, 16};

  private final VariantMetadata metadata;
  private final byte[] b;
  private final int pos;
  private final int size;

  private VariantValue(VariantMetadata metadata, byte[] b, int pos, int size) {
    this.metadata = metadata;
    this.b = b;
    this.pos = pos;
    this.size = size;
  }

  /** The value starting at {@code b[from]}, which may take bytes up to {@code end}; checked in full. */
  public static VariantValue parse(VariantMetadata metadata, byte[] b, int from, int end) {
    VariantException.check(from >= 0 && from <= end && end <= b.length, "value at %d outside its %d bytes", from, end);
    return new VariantValue(metadata, b, from, check(metadata, b, from, end, 0));
  }

  /** Checks the value at {@code at} (bytes up to {@code end}) and returns its size. */
  private static int check(VariantMetadata m, byte[] b, int at, int end, int depth) {
    VariantException.check(depth <= MAX_DEPTH, "values nest deeper than %d levels", MAX_DEPTH);
    VariantException.check(at < end, "a value header lies past the end of its bytes");
    int header = b[at] & 0xff;
    int basic = header & 3;
    int vh = header >>> 2;
    long size;
    switch (basic) {
      case PRIMITIVE -> {
        VariantException.check(vh < PRIMITIVE_SIZE.length, "unknown primitive type %d", vh);
        int fixed = PRIMITIVE_SIZE[vh];
        if (fixed >= 0) {
          size = 1L + fixed;
          if (vh == 17) { // a time of day: what renders as one must be one
            VariantException.check(at + 9L <= end, "a time ends early");
            long us = readUnsigned(b, at + 1, 4) | readUnsigned(b, at + 5, 4) << 32;
            VariantException.check(us >= 0 && us < 86_400_000_000L, "time %d us is outside a day", us);
          }
          if (vh >= 8 && vh <= 10) {
            VariantException.check(at + 1 < end, "a decimal ends before its scale");
            int scale = b[at + 1] & 0xff;
            VariantException.check(scale <= 38, "decimal scale %d above 38", scale);
          }
        } else {
          VariantException.check(at + 5L <= end, "a %s ends in its length", vh == 15 ? "binary" : "string");
          size = 5L + readUnsigned(b, at + 1, 4);
        }
      }
      case SHORT_STRING -> size = 1L + vh;
      case OBJECT -> size = container(m, b, at, end, depth, true);
      default -> size = container(m, b, at, end, depth, false);
    }
    VariantException.check(at + size <= end, "a value of %d bytes at %d overruns its %d bytes", size, at, end);
    return (int) size;
  }

  /** Checks an object or array at {@code at}; returns its size. */
  private static long container(VariantMetadata m, byte[] b, int at, int end, int depth, boolean object) {
    int vh = (b[at] & 0xff) >>> 2;
    int offsetSize = (vh & 3) + 1;
    int idSize = object ? ((vh >>> 2) & 3) + 1 : 0;
    boolean large = ((vh >>> (object ? 4 : 2)) & 1) != 0;
    int countSize = large ? 4 : 1;
    String what = object ? "object" : "array";
    VariantException.check(at + 1L + countSize <= end, "an %s ends in its element count", what);
    long n = readUnsigned(b, at + 1, countSize);
    long ids = at + 1L + countSize;
    long offsets = ids + n * idSize;
    long data = offsets + (n + 1) * offsetSize;
    VariantException.check(data <= end, "an %s of %d elements needs more than its bytes", what, n);
    long last = readUnsigned(b, (int) (offsets + n * offsetSize), offsetSize);
    VariantException.check(data + last <= end, "an %s's data of %d bytes overruns its bytes", what, last);
    String previousKey = null;
    long previousOffset = 0;
    for (int i = 0; i < n; i++) {
      long o = readUnsigned(b, (int) (offsets + (long) i * offsetSize), offsetSize);
      VariantException.check(o < last, "%s element %d at offset %d is outside its %d bytes", what, i, o, last);
      if (object) {
        int id = (int) readUnsigned(b, (int) (ids + (long) i * idSize), idSize);
        String key = m.key(id);
        VariantException.check(previousKey == null || compareUtf8(previousKey, key) < 0,
            "object keys '%s' and '%s' are not unique and sorted", previousKey, key);
        previousKey = key;
        check(m, b, (int) (data + o), (int) (data + last), depth + 1);
      } else {
        VariantException.check(o >= previousOffset, "array offsets decrease at element %d", i);
        long next = readUnsigned(b, (int) (offsets + (i + 1L) * offsetSize), offsetSize);
        VariantException.check(next >= o, "array offsets decrease at element %d", i + 1);
        int s = check(m, b, (int) (data + o), (int) (data + next), depth + 1);
        previousOffset = o + s;
      }
    }
    return data + last - at;
  }

  /** Orders keys by their UTF-8 bytes, as VariantEncoding.md sorts them. */
  public static int compareUtf8(String a, String b) {
    return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  public VariantMetadata metadata() {
    return metadata;
  }

  public byte[] bytes() {
    return b;
  }

  public int position() {
    return pos;
  }

  public int size() {
    return size;
  }

  /** The value's own bytes, copied. */
  public byte[] copy() {
    return Arrays.copyOfRange(b, pos, pos + size);
  }

  public int basicType() {
    return b[pos] & 3;
  }

  /** The primitive type id (VariantEncoding.md) of a primitive value. */
  public int primitiveType() {
    return (b[pos] & 0xff) >>> 2;
  }

  /** Elements of an object or array. */
  public int count() {
    return (int) readUnsigned(b, pos + 1, large() ? 4 : 1);
  }

  private boolean large() {
    int vh = (b[pos] & 0xff) >>> 2;
    return ((vh >>> (basicType() == OBJECT ? 4 : 2)) & 1) != 0;
  }

  private int offsetSize() {
    return (((b[pos] & 0xff) >>> 2) & 3) + 1;
  }

  private int idSize() {
    return basicType() == OBJECT ? ((((b[pos] & 0xff) >>> 4) & 3) + 1) : 0;
  }

  /** The field id of an object's field {@code i}. */
  public int fieldId(int i) {
    int ids = pos + 1 + (large() ? 4 : 1);
    return (int) readUnsigned(b, ids + i * idSize(), idSize());
  }

  /** The key of an object's field {@code i}. */
  public String key(int i) {
    return metadata.key(fieldId(i));
  }

  /** An object's field or array's element {@code i}. */
  public VariantValue element(int i) {
    int n = count();
    int offsets = pos + 1 + (large() ? 4 : 1) + n * idSize();
    int data = offsets + (n + 1) * offsetSize();
    int o = (int) readUnsigned(b, offsets + i * offsetSize(), offsetSize());
    int end = data + (int) readUnsigned(b, offsets + (basicType() == ARRAY ? i + 1 : n) * offsetSize(), offsetSize());
    // Checked when the whole value was made; measured again only to know its size.
    return new VariantValue(metadata, b, data + o, check(metadata, b, data + o, end, 0));
  }

  /** Little-endian signed integer of {@code bytes} bytes of the payload from {@code skip}. */
  public long payloadLong(int skip, int bytes) {
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v |= (long) (b[pos + 1 + skip + i] & 0xff) << (8 * i);
    }
    return bytes == 8 ? v : (v << (64 - 8 * bytes)) >> (64 - 8 * bytes);
  }

  /** The payload of a string, binary, or short string. */
  public byte[] payloadBytes() {
    if (basicType() == SHORT_STRING) {
      return Arrays.copyOfRange(b, pos + 1, pos + size);
    }
    return Arrays.copyOfRange(b, pos + 5, pos + size);
  }

  /** Byte {@code i} of the payload, unsigned. */
  public int payloadByte(int i) {
    return b[pos + 1 + i] & 0xff;
  }
}
