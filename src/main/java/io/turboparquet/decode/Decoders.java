package io.turboparquet.decode;

import io.turboparquet.format.Encoding;
import io.turboparquet.format.PhysicalType;

/** TEMPORARY stub: replaced by the real factory. */
public final class Decoders {
  private Decoders() {}

  public static ValuesDecoder create(Encoding encoding, PhysicalType type, int typeLength, Dictionary dictionary) {
    throw new UnsupportedOperationException();
  }
}
