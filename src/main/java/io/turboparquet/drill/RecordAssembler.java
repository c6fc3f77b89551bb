package io.turboparquet.drill;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.scan.ColumnBatch;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/**
 * Rebuilds records from the scan core's column batches (Dremel record assembly) and replays each
 * record as the calls parquet-java's record reader makes on a converter tree: {@code start()} and
 * {@code end()} around every group instance that is present (each element of a repeated group, an
 * empty LIST or MAP group too), one {@code addX} per defined value, nothing for a null group or
 * value. Driving Drill's own converters this way gives exactly the vectors Drill's nested reader
 * builds.
 *
 * <p>Each leaf column has a cursor over its level entries. Whether a group is present, and whether
 * a repeated field has another element, is read from the levels of one leaf below it (its driver):
 * every leaf below a node repeats the node's structure, and a node that is absent leaves exactly
 * one entry in each of them. Leaves outside every repeated field come from the core as flat
 * columns (validity only, not the level at which an ancestor is null); a node with only such
 * leaves below it is never repeated and sits under non-repeated groups only, whose converters
 * (Drill's single map writers) do nothing on start and end, so it is walked as present and each of
 * its leaves adds its value where defined.
 */
final class RecordAssembler {
  private final GroupConverter root;
  private final List<Node> fields = new ArrayList<>();
  private final List<Leaf> leaves = new ArrayList<>();

  /**
   * @param schema the projected schema (the converter tree's shape)
   * @param root the converter tree's root
   * @param columns the file's leaves on the projected schema's paths, in the projected schema's leaf order
   */
  RecordAssembler(GroupType schema, GroupConverter root, List<ColumnDescriptor> columns) {
    this.root = root;
    for (int i = 0; i < schema.getFieldCount(); i++) {
      fields.add(build(schema.getType(i), root.getConverter(i), 0, 0, columns));
    }
  }

  private Node build(Type type, Converter converter, int parentDef, int parentRep, List<ColumnDescriptor> columns) {
    int def = parentDef + (type.isRepetition(Type.Repetition.REQUIRED) ? 0 : 1);
    int rep = parentRep + (type.isRepetition(Type.Repetition.REPEATED) ? 1 : 0);
    if (type.isPrimitive()) {
      ColumnDescriptor column = columns.get(leaves.size());
      if (column.maxDefinitionLevel() != def || column.maxRepetitionLevel() != rep) {
        throw new IllegalStateException("column " + column.dottedPath() + " has levels " + column.maxDefinitionLevel()
            + "/" + column.maxRepetitionLevel() + " where the projected schema has " + def + "/" + rep);
      }
      Leaf leaf = new Leaf(column, converter.asPrimitiveConverter());
      leaves.add(leaf);
      return new Node(type.getRepetition(), def, rep, converter, null, List.of(leaf));
    }
    GroupType group = type.asGroupType();
    GroupConverter groupConverter = converter.asGroupConverter();
    List<Node> children = new ArrayList<>();
    List<Leaf> below = new ArrayList<>();
    for (int i = 0; i < group.getFieldCount(); i++) {
      Node child = build(group.getType(i), groupConverter.getConverter(i), def, rep, columns);
      children.add(child);
      below.addAll(child.below);
    }
    return new Node(type.getRepetition(), def, rep, converter, children, below);
  }

  /** The number of leaf columns, which is the number of batches {@link #start} takes. */
  int leafCount() {
    return leaves.size();
  }

  /** Points the cursors at the first entries of new batches, one per leaf in leaf order. */
  void start(List<ColumnBatch> batches) {
    for (int i = 0; i < leaves.size(); i++) {
      leaves.get(i).reset(batches.get(i));
    }
  }

  /** Replays the next record on the converter tree. */
  void assembleRecord() {
    root.start();
    for (Node field : fields) {
      field(field);
    }
    root.end();
  }

  private void field(Node n) {
    Leaf driver = n.driver;
    switch (n.repetition) {
      case REQUIRED -> instance(n);
      case OPTIONAL -> {
        if (driver != null && driver.def() < n.defLevel) {
          skip(n);
        } else {
          instance(n);
        }
      }
      case REPEATED -> {
        if (driver.def() < n.defLevel) {
          skip(n); // no element
          return;
        }
        do {
          instance(n);
        } while (driver.hasEntry() && driver.rep() == n.repLevel);
      }
    }
  }

  /** One instance of a node whose parent instance is present: a group's fields, or a leaf's value. */
  private void instance(Node n) {
    if (n.children == null) {
      Leaf leaf = n.below.get(0);
      if (leaf.def() == leaf.maxDef) {
        leaf.emit();
      }
      leaf.next();
      return;
    }
    GroupConverter g = n.converter.asGroupConverter();
    g.start();
    for (Node child : n.children) {
      field(child);
    }
    g.end();
  }

  /** An absent node: one entry in each leaf below it. */
  private static void skip(Node n) {
    for (Leaf leaf : n.below) {
      leaf.next();
    }
  }

  /** Checks that every cursor used up its batch exactly (the records' levels were consistent). */
  void finishBatch() {
    for (Leaf leaf : leaves) {
      if (leaf.hasEntry()) {
        throw new IllegalStateException("column " + leaf.column.dottedPath() + ": " + (leaf.entries - leaf.entry)
            + " level entries left over after the batch's records");
      }
    }
  }

  /** A node of the projected schema with its converter. */
  private static final class Node {
    final Type.Repetition repetition;
    final int defLevel;
    final int repLevel;
    final Converter converter;
    /** Null for a leaf. */
    final List<Node> children;
    /** Every leaf below (a leaf: itself). */
    final List<Leaf> below;
    /** The first leaf below with real levels (under a repeated field), or null when there is none. */
    final Leaf driver;

    Node(Type.Repetition repetition, int defLevel, int repLevel, Converter converter, List<Node> children,
        List<Leaf> below) {
      this.repetition = repetition;
      this.defLevel = defLevel;
      this.repLevel = repLevel;
      this.converter = converter;
      this.children = children;
      this.below = List.copyOf(below);
      this.driver = this.below.stream().filter(l -> l.levels).findFirst().orElse(null);
    }
  }

  /** A cursor over one leaf column's batch. */
  private static final class Leaf {
    final ColumnDescriptor column;
    final PrimitiveConverter converter;
    final PhysicalType type;
    final int maxDef;
    /** True when the core gives repetition and definition levels (the column is under a repeated field). */
    final boolean levels;
    private byte[] scratch = new byte[16];
    private ByteBuf repLevels;
    private ByteBuf defLevels;
    private ByteBuf validity;
    private ByteBuf values;
    private ByteBuf offsets;
    private int width;
    private int entries;
    private int entry;
    private int value;

    Leaf(ColumnDescriptor column, PrimitiveConverter converter) {
      this.column = column;
      this.converter = converter;
      this.type = column.physicalType();
      this.maxDef = column.maxDefinitionLevel();
      this.levels = !column.isFlat();
    }

    void reset(ColumnBatch batch) {
      repLevels = batch.repetitionLevels();
      defLevels = batch.definitionLevels();
      validity = batch.validity();
      values = batch.values().values();
      offsets = batch.values().offsets();
      width = batch.values().width();
      entries = batch.entryCount();
      entry = 0;
      value = 0;
    }

    boolean hasEntry() {
      return entry < entries;
    }

    /** The current entry's definition level (a flat column: the maximum where defined, else 0). */
    int def() {
      check();
      if (levels) {
        return defLevels.getByte(entry) & 0xff;
      }
      return validity == null || validity.getByte(entry) != 0 ? maxDef : 0;
    }

    int rep() {
      check();
      return levels ? repLevels.getByte(entry) & 0xff : 0;
    }

    void next() {
      check();
      entry++;
    }

    private void check() {
      if (entry >= entries) {
        throw new IllegalStateException("column " + column.dottedPath() + ": the levels end inside a record ("
            + entries + " entries)");
      }
    }

    /** Adds the current entry's value: flat columns have a slot per row, nested ones only defined values. */
    void emit() {
      int slot = levels ? value++ : entry;
      switch (type) {
        case BOOLEAN -> converter.addBoolean(values.getByte(slot) != 0);
        case INT32 -> converter.addInt(values.getIntLE(4 * slot));
        case INT64 -> converter.addLong(values.getLongLE(8 * slot));
        case FLOAT -> converter.addFloat(Float.intBitsToFloat(values.getIntLE(4 * slot)));
        case DOUBLE -> converter.addDouble(Double.longBitsToDouble(values.getLongLE(8 * slot)));
        case INT96, FIXED_LEN_BYTE_ARRAY -> binary(Math.multiplyExact(slot, width), width);
        case BYTE_ARRAY -> {
          int from = offsets.getIntLE(4 * slot);
          binary(from, offsets.getIntLE(4 * slot + 4) - from);
        }
      }
    }

    /** Drill's converters copy the bytes at once, so one scratch array serves every value. */
    private void binary(int from, int length) {
      if (scratch.length < length) {
        scratch = new byte[Math.max(length, scratch.length * 2)];
      }
      values.getBytes(from, scratch, 0, length);
      converter.addBinary(Binary.fromReusedByteArray(scratch, 0, length));
    }
  }
}
