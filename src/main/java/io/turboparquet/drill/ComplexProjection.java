package io.turboparquet.drill;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.drill.common.expression.PathSegment;
import org.apache.drill.common.expression.SchemaPath;
import org.apache.drill.exec.store.parquet.ParquetReaderUtility;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * Which part of a file's schema a query with nested columns reads, decided by the rules of Drill's
 * own nested reader ({@code DrillParquetReader}) so that both readers build the same vectors: a
 * projected path selects every leaf it is a prefix of (case-insensitively), array indexes are
 * skipped, a path stops at a MAP-annotated group (Drill looks keys up itself), and a LIST-annotated
 * group's inner {@code list.element} levels are implied. The result is the projected schema (groups
 * keep only the selected fields) and the projected columns the file lacks.
 */
final class ComplexProjection {
  private final MessageType schema;
  private final List<SchemaPath> found;
  private final List<SchemaPath> notFound;

  private ComplexProjection(MessageType schema, List<SchemaPath> found, List<SchemaPath> notFound) {
    this.schema = schema;
    this.found = found;
    this.notFound = notFound;
  }

  /** The projected schema; the whole file schema when the query is a star query or nothing matched. */
  MessageType schema() {
    return schema;
  }

  /** The query's columns the file has (all of them for a star query), as the converters want them. */
  List<SchemaPath> found() {
    return found;
  }

  /**
   * The query's columns the file lacks, as paths along the schema (index segments dropped): Drill
   * makes each a nullable INT column of nulls named by the path's expression.
   */
  List<SchemaPath> notFound() {
    return notFound;
  }

  static ComplexProjection of(MessageType file, Collection<SchemaPath> columns, boolean star) {
    if (star) {
      return new ComplexProjection(file, List.copyOf(columns), List.of());
    }
    List<SchemaPath> leaves = new ArrayList<>();
    for (ColumnDescriptor c : file.getColumns()) {
      leaves.add(SchemaPath.getCompoundPath(c.getPath()));
    }
    Set<SchemaPath> selected = new LinkedHashSet<>();
    List<SchemaPath> found = new ArrayList<>();
    List<SchemaPath> notFound = new ArrayList<>();
    for (SchemaPath column : columns) {
      SchemaPath inFile = alongSchema(column, file);
      boolean any = false;
      for (SchemaPath leaf : leaves) {
        if (leaf.contains(inFile)) {
          selected.add(leaf);
          any = true;
        }
      }
      if (!any) {
        notFound.add(inFile); // named as Drill names it: the path along the schema, without indexes
      }
    }
    for (SchemaPath column : columns) {
      if (!notFound.contains(column)) {
        found.add(column);
      }
    }
    MessageType projected = null;
    for (SchemaPath leaf : selected) {
      MessageType one = new MessageType(file.getName(), branch(file, names(leaf), 0));
      projected = projected == null ? one : projected.union(one);
    }
    return new ComplexProjection(projected == null ? file : projected, found, notFound);
  }

  /**
   * The query path as a path of the file's schema: named segments only, the inner levels of LIST
   * groups added, and nothing below a MAP group.
   */
  private static SchemaPath alongSchema(SchemaPath column, MessageType file) {
    List<String> names = new ArrayList<>();
    Type type = file;
    for (PathSegment seg = column.getRootSegment(); seg != null; seg = seg.getChild()) {
      if (seg.isNamed()) {
        names.add(seg.getNameSegment().getPath());
      }
      type = child(type, seg);
      if (type != null && !type.isPrimitive()) {
        GroupType group = type.asGroupType();
        if (ParquetReaderUtility.isLogicalMapType(group)) {
          break;
        }
        if (ParquetReaderUtility.isLogicalListType(group)) {
          GroupType repeated = group.getType(0).asGroupType();
          names.add(repeated.getName());
          names.add(repeated.getType(0).getName());
        }
      }
    }
    return SchemaPath.getCompoundPath(names.toArray(new String[0]));
  }

  /** The field a segment names (case-insensitively), or a LIST's element for an index; null if none. */
  private static Type child(Type parent, PathSegment seg) {
    if (parent == null || parent.isPrimitive()) {
      return null;
    }
    GroupType group = parent.asGroupType();
    if (seg.isNamed()) {
      String name = seg.getNameSegment().getPath();
      return group.getFields().stream().filter(f -> f.getName().equalsIgnoreCase(name)).findAny().orElse(null);
    }
    return ParquetReaderUtility.isLogicalListType(group) ? group.getType(0).asGroupType().getType(0) : null;
  }

  private static String[] names(SchemaPath leaf) {
    List<String> out = new ArrayList<>();
    for (PathSegment seg = leaf.getRootSegment(); seg != null; seg = seg.getChild()) {
      out.add(seg.getNameSegment().getPath());
    }
    return out.toArray(new String[0]);
  }

  /** The file's type at {@code path[0..depth]}, its groups holding only the branch down to the leaf. */
  private static Type branch(MessageType file, String[] path, int depth) {
    Type type = file.getType(Arrays.copyOfRange(path, 0, depth + 1));
    if (depth + 1 == path.length) {
      return type;
    }
    return Types.buildGroup(type.getRepetition())
        .as(type.getOriginalType())
        .addField(branch(file, path, depth + 1))
        .named(type.getName());
  }
}
