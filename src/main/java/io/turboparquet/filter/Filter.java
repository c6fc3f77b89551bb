package io.turboparquet.filter;

import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.format.PhysicalType;
import io.turboparquet.format.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link Predicate} bound to a file's schema: every column resolved to its leaf and every literal
 * typed by the leaf's {@link ValueOrder}. Columns whose order this reader cannot use keep their
 * literals unbound and are never used to skip anything.
 */
public final class Filter {
  /** A node of the bound predicate. */
  public sealed interface Node permits Leaf, All, Any {}

  public enum Kind { COMPARE, IN, IS_NULL, NOT_NULL, INTERSECTS, LIKE, NOT_LIKE }

  /**
   * One column's condition.
   *
   * @param order null when the column cannot be filtered by statistics (see {@link ValueOrder#of})
   * @param values the typed literals (one for COMPARE; empty when {@code order} is null); for
   *     INTERSECTS, the {@link Predicate.Intersects} itself; for [NOT_]LIKE, its {@link LikePattern}
   */
  public record Leaf(ColumnDescriptor column, ValueOrder order, Kind kind, Predicate.Op op, List<Object> values)
      implements Node {}

  public record All(List<Node> terms) implements Node {}

  public record Any(List<Node> terms) implements Node {}

  private final Predicate predicate;
  private final Node root;
  private final Map<Integer, ColumnDescriptor> columns = new LinkedHashMap<>();

  private Filter(Predicate predicate, Schema schema) {
    this.predicate = predicate;
    this.root = node(predicate, schema);
  }

  /** Binds {@code predicate} to {@code schema}; IllegalArgumentException naming an unknown column or a mistyped literal. */
  public static Filter bind(Predicate predicate, Schema schema) {
    return new Filter(predicate, schema);
  }

  public Predicate predicate() {
    return predicate;
  }

  public Node root() {
    return root;
  }

  /** The leaves the filter names, by leaf index. */
  public Map<Integer, ColumnDescriptor> columns() {
    return columns;
  }

  private Node node(Predicate p, Schema schema) {
    if (p instanceof Predicate.And a) {
      return new All(a.terms().stream().map(t -> node(t, schema)).toList());
    }
    if (p instanceof Predicate.Or o) {
      return new Any(o.terms().stream().map(t -> node(t, schema)).toList());
    }
    String name = p instanceof Predicate.Compare c ? c.column()
        : p instanceof Predicate.In i ? i.column()
        : p instanceof Predicate.Intersects g ? g.column()
        : p instanceof Predicate.Like l ? l.column() : ((Predicate.IsNull) p).column();
    ColumnDescriptor column = schema.column(name);
    if (column == null) {
      throw new IllegalArgumentException("filter: no column " + name + " in the schema (a leaf's dotted path)");
    }
    columns.put(column.index(), column);
    if (p instanceof Predicate.Intersects g) {
      if (!column.isGeospatial()) {
        throw new IllegalArgumentException("filter: INTERSECTS wants a GEOMETRY or GEOGRAPHY column; " + name
            + " is " + column.physicalType() + (column.logicalType() == null ? "" : " " + column.logicalType()));
      }
      return new Leaf(column, null, Kind.INTERSECTS, null, List.of(g));
    }
    if (p instanceof Predicate.Like l) {
      if (column.physicalType() != PhysicalType.BYTE_ARRAY || !column.isFlat()) {
        throw new IllegalArgumentException("filter: LIKE wants a flat BYTE_ARRAY column; " + name + " is "
            + column.physicalType() + (column.isFlat() ? "" : " under a repeated field"));
      }
      return new Leaf(column, null, l.negated() ? Kind.NOT_LIKE : Kind.LIKE, null, List.of(l.pattern()));
    }
    ValueOrder order = ValueOrder.of(column);
    if (p instanceof Predicate.IsNull n) {
      return new Leaf(column, order, n.negated() ? Kind.NOT_NULL : Kind.IS_NULL, null, List.of());
    }
    List<Object> values = new ArrayList<>();
    if (p instanceof Predicate.Compare c) {
      if (order != null) {
        values.add(order.literal(c.value()));
      }
      return new Leaf(column, order, Kind.COMPARE, c.op(), values);
    }
    Predicate.In in = (Predicate.In) p;
    if (order != null) {
      for (Literal l : in.values()) {
        values.add(order.literal(l));
      }
    }
    return new Leaf(column, order, Kind.IN, Predicate.Op.EQ, values);
  }

  @Override
  public String toString() {
    return predicate.toString();
  }
}
