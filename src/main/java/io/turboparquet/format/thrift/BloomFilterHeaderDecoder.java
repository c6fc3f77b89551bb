package io.turboparquet.format.thrift;

import static io.turboparquet.format.thrift.ThriftCursor.I32;
import static io.turboparquet.format.thrift.ThriftCursor.STRUCT;
import static io.turboparquet.format.thrift.ThriftCursor.fieldId;
import static io.turboparquet.format.thrift.ThriftCursor.fieldType;

import io.turboparquet.format.BloomFilterHeader;
import io.turboparquet.format.FooterOptions;
import io.turboparquet.format.ParquetCorruptionException;

/**
 * BloomFilterHeader {1: num_bytes, 2: algorithm, 3: hash, 4: compression}, each of the last three a
 * union whose member 1 is the one the format defines (BLOCK, XXHASH, UNCOMPRESSED); other members
 * (from newer writers) are skipped and reported as unset. Decoded from bytes the caller read at
 * {@code ColumnChunkMeta.bloomFilter()}.
 */
public final class BloomFilterHeaderDecoder {
  private BloomFilterHeaderDecoder() {}

  /**
   * Decodes the header at {@code bytes[offset, offset + length)}; {@code what} names the filter in
   * errors ("row group 0 column a: bloom filter header at offset 4").
   */
  public static BloomFilterHeader read(String file, String what, byte[] bytes, int offset, int length)
      throws ParquetCorruptionException {
    ThriftCursor r = new ThriftCursor(file, what, bytes, offset, length,
        FooterOptions.DEFAULT_MAX_STRING_LENGTH);
    int numBytes = 0;
    boolean hasNumBytes = false;
    int algorithm = -1;
    int hash = -1;
    int compression = -1;
    for (int f = r.readField(0); f >= 0; ) { // fields in id order, see ThriftCursor.skipField
      int at = r.position();
      if (f == (1 << 4 | I32)) {
        numBytes = r.readI32();
        hasNumBytes = true;
        f = r.readField(1);
      }
      if (f == (2 << 4 | STRUCT)) {
        algorithm = member(r);
        f = r.readField(2);
      }
      if (f == (3 << 4 | STRUCT)) {
        hash = member(r);
        f = r.readField(3);
      }
      if (f == (4 << 4 | STRUCT)) {
        compression = member(r);
        f = r.readField(4);
      }
      f = r.position() == at ? r.skipField(f) : f;
    }
    r.require(hasNumBytes, "BloomFilterHeader.numBytes");
    r.require(algorithm != -1, "BloomFilterHeader.algorithm");
    r.require(hash != -1, "BloomFilterHeader.hash");
    r.require(compression != -1, "BloomFilterHeader.compression");
    return new BloomFilterHeader(numBytes, algorithm == 1, hash == 1, compression == 1, r.position());
  }

  /**
   * A union: the id of its first member that is a struct (the format's members are empty structs),
   * 0 when it has none; everything in it is walked.
   */
  private static int member(ThriftCursor r) throws ParquetCorruptionException {
    int member = 0;
    int last = 0;
    for (int f = r.readField(last); f >= 0; f = r.readField(last)) {
      last = fieldId(f);
      if (member == 0 && fieldType(f) == STRUCT) {
        member = last;
      }
      r.skip(fieldType(f));
    }
    return member;
  }
}
