package io.turboparquet.format.crypto;

/** Module AADs (Encryption.md 4.4): the file's prefix and unique id, then the module's identity. */
final class Aad {
  private Aad() {}

  /**
   * {@code fileAad}, the module type, then for all but the footer the row group and column ordinals
   * and for data pages and their headers the page ordinal, each a little-endian short. The callers
   * check that ordinals fit a short.
   */
  static byte[] of(byte[] fileAad, ModuleType type, int rowGroup, int column, int page) {
    int n = fileAad.length;
    int length = n + 1 + (type == ModuleType.FOOTER ? 0 : 4) + (type.hasPageOrdinal() ? 2 : 0);
    byte[] aad = java.util.Arrays.copyOf(fileAad, length);
    aad[n] = type.id;
    if (type != ModuleType.FOOTER) {
      aad[n + 1] = (byte) rowGroup;
      aad[n + 2] = (byte) (rowGroup >>> 8);
      aad[n + 3] = (byte) column;
      aad[n + 4] = (byte) (column >>> 8);
    }
    if (type.hasPageOrdinal()) {
      aad[n + 5] = (byte) page;
      aad[n + 6] = (byte) (page >>> 8);
    }
    return aad;
  }
}
