package io.turboparquet.drill;

import io.netty.buffer.ByteBuf;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.ParquetCorruptionException;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.scan.Batch;
import io.turboparquet.scan.ColumnBatch;
import io.turboparquet.scan.LeafEntries;
import io.turboparquet.scan.VariantRebuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 *
 * <p>A VARIANT group is one leaf of the converter schema ({@link ConverterSchema}) fed by all its
 * file leaves: each instance's entries (the first, and those repeating inside it) are rebuilt into
 * its value ({@link VariantCell}) and added as one binary, so inside a list each element's value
 * lands where Drill's list writer puts that element.
 */
final class RecordAssembler {
  private final GroupConverter root;
  private final List<Node> fields = new ArrayList<>();
  private final List<Leaf> leaves = new ArrayList<>();
  /** Leaf positions (in {@link #leaves}) of every VARIANT's leaves, copied per batch for rebuilding. */
  private final List<Integer> variantLeaves = new ArrayList<>();
  private final LeafEntries[] entries;
  private int rowGroup;
  private long firstRow;
  private int record;

  /**
   * @param schema the converter schema (the converter tree's shape)
   * @param root the converter tree's root
   * @param sources what feeds each leaf of {@code schema}, in its leaf order
   * @param file the file, for errors
   */
  RecordAssembler(GroupType schema, GroupConverter root, List<ConverterSchema.Source> sources, String file) {
    this.root = root;
    Builder b = new Builder(sources, file);
    for (int i = 0; i < schema.getFieldCount(); i++) {
      fields.add(b.build(schema.getType(i), root.getConverter(i), 0, 0));
    }
    this.entries = new LeafEntries[leaves.size()];
  }

  /** Builds the node tree, taking the sources in leaf order. */
  private final class Builder {
    private final List<ConverterSchema.Source> sources;
    private final String file;
    private int next;

    Builder(List<ConverterSchema.Source> sources, String file) {
      this.sources = sources;
      this.file = file;
    }

    private Node build(Type type, Converter converter, int parentDef, int parentRep) {
      int def = parentDef + (type.isRepetition(Type.Repetition.REQUIRED) ? 0 : 1);
      int rep = parentRep + (type.isRepetition(Type.Repetition.REPEATED) ? 1 : 0);
      if (type.isPrimitive() && sources.get(next) instanceof ConverterSchema.Variant v) {
        next++;
        return variant(v, type, converter, def, rep);
      }
      if (type.isPrimitive()) {
        ColumnDescriptor column = ((ConverterSchema.Column) sources.get(next++)).column();
        if (column.maxDefinitionLevel() != def || column.maxRepetitionLevel() != rep) {
          throw new IllegalStateException("column " + column.dottedPath() + " has levels " + column.maxDefinitionLevel()
              + "/" + column.maxRepetitionLevel() + " where the projected schema has " + def + "/" + rep);
        }
        Leaf leaf = new Leaf(leaves.size(), column, converter.asPrimitiveConverter());
        leaves.add(leaf);
        return new Node(type.getRepetition(), def, rep, converter, null, List.of(leaf), null);
      }
      GroupType group = type.asGroupType();
      GroupConverter groupConverter = converter.asGroupConverter();
      List<Node> children = new ArrayList<>();
      List<Leaf> below = new ArrayList<>();
      for (int i = 0; i < group.getFieldCount(); i++) {
        Node child = build(group.getType(i), groupConverter.getConverter(i), def, rep);
        children.add(child);
        below.addAll(child.below);
      }
      return new Node(type.getRepetition(), def, rep, converter, children, below, null);
    }

    /** A VARIANT: a leaf of the converter schema over all the group's leaves. */
    private Node variant(ConverterSchema.Variant v, Type type, Converter converter, int def, int rep) {
      Map<Integer, Integer> position = new HashMap<>();
      List<Leaf> below = new ArrayList<>();
      for (ColumnDescriptor c : v.leaves()) {
        position.put(c.index(), leaves.size());
        variantLeaves.add(leaves.size());
        Leaf leaf = new Leaf(leaves.size(), c, null);
        leaves.add(leaf);
        below.add(leaf);
      }
      VariantCell cell = new VariantCell(new VariantRebuilder(v.group(), def, rep, position), file, v.path(),
          v.binary());
      return new Node(type.getRepetition(), def, rep, converter, null, below, cell);
    }
  }

  /** The number of leaf columns, which is the number of batches {@link #start} takes. */
  int leafCount() {
    return leaves.size();
  }

  /**
   * Points the cursors at the first entries of a new batch, whose columns are the leaves in leaf
   * order; copies the VARIANTs' leaves for rebuilding.
   */
  void start(Batch batch) {
    List<ColumnBatch> batches = batch.columns();
    for (int i = 0; i < leaves.size(); i++) {
      leaves.get(i).reset(batches.get(i));
    }
    for (int p : variantLeaves) {
      entries[p] = new LeafEntries(batches.get(p), batch.rows());
    }
    rowGroup = batch.rowGroup();
    firstRow = batch.firstRow();
    record = 0;
  }

  /** Replays the next record on the converter tree; an invalid VARIANT fails naming where. */
  void assembleRecord() throws ParquetCorruptionException {
    root.start();
    for (Node field : fields) {
      field(field);
    }
    root.end();
    record++;
  }

  private void field(Node n) throws ParquetCorruptionException {
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
  private void instance(Node n) throws ParquetCorruptionException {
    if (n.variant != null) {
      variant(n);
      return;
    }
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

  /** One instance of a VARIANT: its entries in every leaf rebuilt into one value, added unless null. */
  private void variant(Node n) throws ParquetCorruptionException {
    int[] from = new int[leaves.size()];
    int[] to = new int[leaves.size()];
    for (Leaf leaf : n.below) {
      from[leaf.position] = leaf.entry;
      to[leaf.position] = leaf.instanceEnd(n.repLevel);
    }
    byte[] bytes = n.variant.bytes(entries, from, to, rowGroup, firstRow + record);
    if (bytes != null) {
      n.converter.asPrimitiveConverter().addBinary(Binary.fromConstantByteArray(bytes));
    }
    for (Leaf leaf : n.below) {
      leaf.entry = to[leaf.position];
    }
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
    /** A VARIANT group's value, or null. */
    final VariantCell variant;

    Node(Type.Repetition repetition, int defLevel, int repLevel, Converter converter, List<Node> children,
        List<Leaf> below, VariantCell variant) {
      this.variant = variant;
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
    /** Index in the assembler's leaves (the batch's column position). */
    final int position;
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

    /** {@code converter} is null for a VARIANT's leaf, whose values the VARIANT's node rebuilds. */
    Leaf(int position, ColumnDescriptor column, PrimitiveConverter converter) {
      this.position = position;
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

    /**
     * The end of the instance starting at the current entry of a node at repetition level {@code rep}:
     * the entries after it whose repetition level is deeper belong to it.
     */
    int instanceEnd(int rep) {
      check();
      int end = entry + 1;
      while (levels && end < entries && (repLevels.getByte(end) & 0xff) > rep) {
        end++;
      }
      return end;
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
