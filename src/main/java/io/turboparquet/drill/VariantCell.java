package io.turboparquet.drill;

import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.VariantJson;
import io.turboparquet.scan.LeafEntries;
import io.turboparquet.scan.VariantColumn;
import io.turboparquet.scan.VariantRebuilder;
import java.nio.charset.StandardCharsets;

/**
 * What Drill holds for one instance of a VARIANT group: the JSON of its value ({@link VariantJson},
 * as the CLI prints it) as VARCHAR bytes, or with {@code variantAsBinary} the Variant binary
 * (metadata then value). Drill has no Variant type; JSON text is what its {@code convert_fromJSON}
 * turns into maps and lists.
 */
final class VariantCell {
  private final VariantRebuilder rebuilder;
  private final String file;
  private final String path;
  private final boolean binary;

  VariantCell(VariantRebuilder rebuilder, String file, String path, boolean binary) {
    this.rebuilder = rebuilder;
    this.file = file;
    this.path = path;
    this.binary = binary;
  }

  /**
   * The bytes of the instance whose entries are {@code [from[p], to[p])} per leaf position, or null
   * where the variant is null; an invalid VARIANT fails naming file, row group, column and row.
   */
  byte[] bytes(LeafEntries[] leaves, int[] from, int[] to, int rowGroup, long row) throws ParquetCorruptionException {
    byte[] v = VariantColumn.rebuild(rebuilder, leaves, from, to, file, rowGroup, path, row);
    if (v == null || binary) {
      return v;
    }
    return VariantJson.of(v).getBytes(StandardCharsets.UTF_8);
  }
}
