package io.turboparquet.drill;

import io.turboparquet.format.VariantJson;
import io.turboparquet.scan.Batch;
import io.turboparquet.scan.VariantColumn;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.drill.common.types.TypeProtos.MinorType;
import org.apache.drill.common.types.Types;
import org.apache.drill.exec.exception.SchemaChangeException;
import org.apache.drill.exec.physical.impl.OutputMutator;
import org.apache.drill.exec.record.MaterializedField;
import org.apache.drill.exec.vector.NullableVarBinaryVector;
import org.apache.drill.exec.vector.NullableVarCharVector;
import org.apache.drill.exec.vector.ValueVector;

/**
 * The VARIANT columns of a row group into Drill's vectors, one nullable column per VARIANT group
 * named as the group: VARCHAR holding the value's JSON ({@link VariantJson}), or with the format
 * property {@code variantAsBinary} VARBINARY holding the Variant binary (metadata then value). Drill
 * has no Variant type; JSON text is what its {@code convert_fromJSON} turns into maps and lists.
 */
final class VariantVectors {
  private final List<VariantColumn> columns;
  private final boolean binary;
  private final List<ValueVector> vectors = new ArrayList<>();

  VariantVectors(List<VariantColumn> columns, boolean binary) {
    this.columns = columns;
    this.binary = binary;
  }

  void setup(OutputMutator output) throws SchemaChangeException {
    for (VariantColumn c : columns) {
      MaterializedField field = MaterializedField.create(c.path(),
          Types.optional(binary ? MinorType.VARBINARY : MinorType.VARCHAR));
      if (binary) {
        vectors.add(output.addField(field, NullableVarBinaryVector.class));
      } else {
        vectors.add(output.addField(field, NullableVarCharVector.class));
      }
    }
  }

  /** Writes the first {@code rows} rows of {@code batch}; an invalid VARIANT fails naming file, row group, column, row. */
  void write(Batch batch, int rows) throws IOException {
    for (int i = 0; i < columns.size(); i++) {
      byte[][] values = columns.get(i).values(batch);
      ValueVector vector = vectors.get(i);
      for (int r = 0; r < rows; r++) {
        byte[] v = values[r];
        if (v == null) {
          continue; // nullable vectors start null
        }
        byte[] out = binary ? v : VariantJson.of(v).getBytes(StandardCharsets.UTF_8);
        if (binary) {
          ((NullableVarBinaryVector) vector).getMutator().setSafe(r, out, 0, out.length);
        } else {
          ((NullableVarCharVector) vector).getMutator().setSafe(r, out, 0, out.length);
        }
      }
      vector.getMutator().setValueCount(rows);
    }
  }
}
