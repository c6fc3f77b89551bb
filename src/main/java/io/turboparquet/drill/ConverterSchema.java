package io.turboparquet.drill;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.SchemaNode;
import io.turboparquet.scan.VariantColumn;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * The schema Drill's converters see for a projection, and which of the file's leaves feed each of
 * its leaves. It is the projected schema with every VARIANT-annotated group, at any depth, replaced
 * by a binary leaf of the group's name and repetition: annotated STRING, so Drill's converters make
 * it VARCHAR (the value's JSON), or unannotated for VARBINARY (the Variant binary) with
 * {@code variantAsBinary}. Drill has no Variant type, and its converters would otherwise make the
 * group a map of its physical columns. A VARIANT projected at all is read whole: its value exists
 * only rebuilt from all its leaves ({@link RecordAssembler} does it).
 */
final class ConverterSchema {
  /** What feeds one leaf of the converter schema: one file column, or all the leaves of a VARIANT group. */
  sealed interface Source permits Column, Variant {}

  record Column(ColumnDescriptor column) implements Source {}

  /**
   * @param path the group's dotted path, for errors
   * @param binary the leaf holds the Variant binary (VARBINARY), else the value's JSON (VARCHAR)
   */
  record Variant(SchemaNode group, String path, List<ColumnDescriptor> leaves, boolean binary) implements Source {}

  private final MessageType schema;
  private final List<Source> sources = new ArrayList<>();
  private final List<ColumnDescriptor> leaves = new ArrayList<>();

  /**
   * @param projected the projected schema in parquet-java's form, its names the file's
   * @param file the root of the file's schema
   */
  ConverterSchema(MessageType projected, SchemaNode file, boolean variantAsBinary) {
    List<Type> fields = new ArrayList<>();
    for (Type t : projected.getFields()) {
      fields.add(convert(t, child(file, t.getName(), ""), "", variantAsBinary));
    }
    this.schema = new MessageType(projected.getName(), fields);
  }

  private Type convert(Type type, SchemaNode node, String parentPath, boolean binary) {
    String path = parentPath.isEmpty() ? type.getName() : parentPath + "." + type.getName();
    if (VariantColumn.isVariant(node)) {
      List<ColumnDescriptor> below = node.columns();
      sources.add(new Variant(node, path, below, binary));
      leaves.addAll(below);
      Types.PrimitiveBuilder<PrimitiveType> leaf = Types.primitive(PrimitiveTypeName.BINARY, type.getRepetition());
      return (binary ? leaf : leaf.as(LogicalTypeAnnotation.stringType())).named(type.getName());
    }
    if (type.isPrimitive()) {
      sources.add(new Column(node.column()));
      leaves.add(node.column());
      return type;
    }
    GroupType group = type.asGroupType();
    List<Type> fields = new ArrayList<>();
    for (Type t : group.getFields()) {
      fields.add(convert(t, child(node, t.getName(), path), path, binary));
    }
    return group.withNewFields(fields);
  }

  private static SchemaNode child(SchemaNode parent, String name, String parentPath) {
    for (SchemaNode c : parent.children()) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    throw new IllegalStateException("no field " + (parentPath.isEmpty() ? name : parentPath + "." + name)
        + " in the file's schema");
  }

  /** The schema Drill's converters are built on. */
  MessageType schema() {
    return schema;
  }

  /** Per leaf of {@link #schema()}, in its leaf order, what feeds it. */
  List<Source> sources() {
    return sources;
  }

  /** The file's leaves to read, in the order of {@link #sources()} (a VARIANT's all in a row). */
  List<ColumnDescriptor> leaves() {
    return leaves;
  }
}
