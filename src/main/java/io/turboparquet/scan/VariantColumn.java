package io.turboparquet.scan;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.Repetition;
import io.turboparquet.format.SchemaNode;
import io.turboparquet.format.VariantException;
import io.turboparquet.io.ErrorContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A VARIANT column of the scan core: one VARIANT-annotated group outside every repeated field, whose
 * leaves the scan projects, as one Variant binary (metadata then value) per row of a batch, null where
 * the group is null ({@link VariantRebuilder}). A value that is not a valid shredded variant fails as
 * a {@link ParquetCorruptionException} naming file, row group, column and row.
 */
public final class VariantColumn {
  private final String file;
  private final String path;
  private final VariantRebuilder rebuilder;
  private final List<Integer> positions; // batch positions of the group's leaves

  private VariantColumn(String file, String path, VariantRebuilder rebuilder, List<Integer> positions) {
    this.file = file;
    this.path = path;
    this.rebuilder = rebuilder;
    this.positions = positions;
  }

  /** Whether a schema node is a VARIANT-annotated group (any specification version). */
  public static boolean isVariant(SchemaNode n) {
    return !n.isLeaf() && n.logicalType() != null && n.logicalType().startsWith("VARIANT");
  }

  /** The VARIANT columns of {@code projection} (the scanner's leaves, in batch order) whose leaves are all projected. */
  public static List<VariantColumn> of(String file, SchemaNode root, List<ColumnDescriptor> projection) {
    Map<Integer, Integer> position = new HashMap<>();
    for (int i = 0; i < projection.size(); i++) {
      position.put(projection.get(i).index(), i);
    }
    List<VariantColumn> out = new ArrayList<>();
    for (SchemaNode c : root.children()) {
      find(file, c, 0, new ArrayList<>(), position, out);
    }
    return out;
  }

  private static void find(String file, SchemaNode n, int parentDef, List<String> path,
      Map<Integer, Integer> position, List<VariantColumn> out) {
    if (n.isLeaf() || n.repetition() == Repetition.REPEATED) {
      return;
    }
    int def = parentDef + (n.repetition() == Repetition.OPTIONAL ? 1 : 0);
    path.add(n.name());
    if (isVariant(n)) {
      List<Integer> positions = new ArrayList<>();
      if (leaves(n, position, positions)) {
        out.add(new VariantColumn(file, String.join(".", path), new VariantRebuilder(n, def, 0, position), positions));
      }
    } else {
      for (SchemaNode c : n.children()) {
        find(file, c, def, path, position, out);
      }
    }
    path.remove(path.size() - 1);
  }

  private static boolean leaves(SchemaNode n, Map<Integer, Integer> position, List<Integer> out) {
    if (n.isLeaf()) {
      Integer p = position.get(n.column().index());
      out.add(p);
      return p != null;
    }
    boolean all = true;
    for (SchemaNode c : n.children()) {
      all &= leaves(c, position, out);
    }
    return all;
  }

  /** The group's dotted path. */
  public String path() {
    return path;
  }

  /** Batch positions of the group's leaf columns. */
  public List<Integer> leafPositions() {
    return positions;
  }

  /** Each row's Variant binary (null where the group is null) of {@code batch}. */
  public byte[][] values(Batch batch) throws ParquetCorruptionException {
    LeafEntries[] leaves = new LeafEntries[batch.columns().size()];
    for (int p : positions) {
      leaves[p] = new LeafEntries(batch.columns().get(p), batch.rows());
    }
    byte[][] out = new byte[batch.rows()][];
    for (int r = 0; r < batch.rows(); r++) {
      out[r] = value(leaves, r, batch);
    }
    return out;
  }

  /** Row {@code row} of {@code batch}, whose leaves are loaded in {@code leaves} (by batch position). */
  public byte[] value(LeafEntries[] leaves, int row, Batch batch) throws ParquetCorruptionException {
    int[] from = new int[leaves.length];
    int[] to = new int[leaves.length];
    for (int p : positions) {
      from[p] = leaves[p].rowStart(row);
      to[p] = leaves[p].rowStart(row + 1);
    }
    return rebuild(rebuilder, leaves, from, to, file, batch.rowGroup(), path, batch.row(row));
  }

  /** Runs {@code rebuilder} on one instance; an invalid variant fails naming where. */
  public static byte[] rebuild(VariantRebuilder rebuilder, LeafEntries[] leaves, int[] from, int[] to, String file,
      int rowGroup, String path, long row) throws ParquetCorruptionException {
    try {
      return rebuilder.rebuild(leaves, from, to);
    } catch (VariantException e) {
      throw new ParquetCorruptionException(ErrorContext.of(file).inRowGroup(rowGroup).column(path),
          "invalid VARIANT at row " + row + " of the row group: " + e.getMessage());
    }
  }
}
