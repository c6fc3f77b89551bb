package io.turboparquet.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.turboparquet.io.TrackingBufferSource;
import io.turboparquet.scan.Batch;
import io.turboparquet.scan.ColumnBatch;
import io.turboparquet.scan.ParquetFileScanner;
import io.turboparquet.scan.ScanContext;
import io.turboparquet.scan.ScanHarness;
import io.turboparquet.scan.ScanMetrics;
import io.turboparquet.scan.ScanOptions;
import io.turboparquet.scan.ScanPools;
import io.turboparquet.filter.Geospatial;
import io.turboparquet.filter.Predicate;
import io.turboparquet.testing.CorpusFiles;
import io.turboparquet.testing.ParquetJava118;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;

/**
 * parquet-testing's geospatial files: GEOMETRY and GEOGRAPHY annotations as the files' README
 * describes them, WKB values as their {@code wkt} column spells them, and statistics that hold
 * every value (each coordinate in the bounding box, each geometry's type in the type list).
 * parquet-java 1.18.1 is the oracle of annotations and values (Drill's 1.15 fails on these files).
 */
public class GeospatialTest {
  static final Path DIR = CorpusFiles.dir().resolve("geospatial");

  static List<Path> files() throws IOException {
    try (Stream<Path> s = Files.list(DIR)) {
      return s.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
    }
  }

  static FileMetadata footer(Path file) throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(file.toUri());
    FileSystem fs = p.getFileSystem(new Configuration());
    try (FSDataInputStream in = fs.open(p)) {
      return FooterReader.read(in, file.toString(), Files.size(file),
          FooterOptions.DEFAULT.withStatistics(FooterOptions.ColumnSelector.ALL));
    }
  }

  /** The geometry column: the one annotated GEOMETRY or GEOGRAPHY. */
  static ColumnDescriptor geoColumn(FileMetadata meta) {
    return meta.schema().columns().stream().filter(ColumnDescriptor::isGeospatial).findFirst()
        .orElseThrow(() -> new AssertionError(meta.file() + " has no geospatial column"));
  }

  @Test
  void annotationsAndValuesAreParquetJava118s() throws Exception {
    List<Path> files = files();
    List<Map<Path, List<String>>> schemasAndDigests = ParquetJava118.schemaAndDigest(files);
    Map<Path, List<String>> schemas = schemasAndDigests.get(0);
    Map<Path, List<String>> digests = schemasAndDigests.get(1);
    try (ScanHarness harness = new ScanHarness()) {
      for (Path file : files) {
        FileMetadata meta = footer(file);
        List<String> ours = new ArrayList<>();
        for (ColumnDescriptor c : meta.schema().columns()) {
          ours.add(c.dottedPath() + "\t" + c.logicalType() + "\t" + meta.columnOrder(c));
        }
        List<String> expected = schemas.get(file.toAbsolutePath()).stream()
            .map(l -> l.replace("TYPE_DEFINED_ORDER", "TYPE_DEFINED")).toList();
        assertEquals(expected, ours, file.getFileName().toString());
        assertEquals(digests.get(file.toAbsolutePath()), harness.digest(file, null, ScanOptions.defaults()),
            file.getFileName().toString());
      }
    }
  }

  @Test
  void annotationsAreTheReadmes() throws IOException {
    Map<String, String> expected = Map.of(
        "crs-default.parquet", "GEOMETRY",
        "crs-geography.parquet", "GEOGRAPHY",
        "geography-lines.parquet", "GEOGRAPHY(OGC:CRS84,SPHERICAL)",
        "crs-projjson.parquet", "GEOMETRY(projjson:projjson_epsg_5070)",
        "crs-srid.parquet", "GEOMETRY(srid:5070)",
        "geography-points.parquet", "GEOGRAPHY(OGC:CRS84,SPHERICAL)",
        "geospatial.parquet", "GEOMETRY");
    for (Map.Entry<String, String> e : expected.entrySet()) {
      assertEquals(e.getValue(), geoColumn(footer(DIR.resolve(e.getKey()))).logicalType(), e.getKey());
    }
    FileMetadata projjson = footer(DIR.resolve("crs-projjson.parquet"));
    assertTrue(projjson.keyValues().get("projjson_epsg_5070").contains("\"EPSG\""), "the CRS the annotation names");
  }

  /** A flat BYTE_ARRAY column's values as our scan reads them, null for a null. */
  public static List<byte[]> values(Path file, String column) throws IOException {
    List<byte[]> out = new ArrayList<>();
    ScanOptions options = ScanOptions.defaults();
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
    try (ScanPools pools = ScanPools.forOptions(options)) {
      ScanContext context = new ScanContext(path.getFileSystem(new Configuration()), options,
          new TrackingBufferSource(), pools.scanPool(), pools.decodePool(), new ScanMetrics());
      try (ParquetFileScanner scanner = ParquetFileScanner.open(context, path, List.of(column))) {
        for (Batch batch; (batch = scanner.next()) != null; ) {
          ColumnBatch c = batch.columns().get(0);
          ByteBuf offsets = c.values().offsets();
          for (int row = 0; row < batch.rows(); row++) {
            if (c.validity() != null && c.validity().getByte(row) == 0) {
              out.add(null);
              continue;
            }
            int start = offsets.getIntLE(4 * row);
            byte[] v = new byte[offsets.getIntLE(4 * row + 4) - start];
            c.values().values().getBytes(start, v);
            out.add(v);
          }
        }
      }
    }
    return out;
  }

  @Test
  void wkbReadsAsTheWktColumnSpellsIt() throws IOException {
    int checked = 0;
    for (Path file : files()) {
      FileMetadata meta = footer(file);
      if (meta.schema().column("wkt") == null) {
        continue;
      }
      List<byte[]> wkt = values(file, "wkt");
      List<byte[]> wkb = values(file, geoColumn(meta).dottedPath());
      assertEquals(wkt.size(), wkb.size());
      for (int i = 0; i < wkt.size(); i++) {
        byte[] value = wkb.get(i);
        if (value == null) {
          continue;
        }
        String text = new String(wkt.get(i), StandardCharsets.UTF_8);
        if (text.contains("nan")) { // geospatial-with-nan's invalid LINESTRING: NaN is spelled as Java does
          text = text.replace("nan", "NaN");
        }
        assertEquals(text, Wkb.toText(value, 0, value.length), file.getFileName() + " row " + i);
        checked++;
      }
    }
    assertTrue(checked > 150, "values checked: " + checked);
  }

  /** Each row group's box holds every coordinate of its values (X wrapping where it says so); its types, theirs. */
  @Test
  void statisticsHoldEveryValue() throws IOException {
    int boxes = 0;
    int wrapping = 0;
    for (Path file : files()) {
      FileMetadata meta = footer(file);
      ColumnDescriptor geo = geoColumn(meta);
      List<byte[]> values = values(file, geo.dottedPath());
      int row = 0;
      for (RowGroupMeta rg : meta.rowGroups()) {
        GeospatialStatistics stats = rg.column(geo.index()).geospatial();
        List<byte[]> group = new ArrayList<>();
        for (long r = 0; r < rg.numRows(); r++, row++) {
          if (values.get(row) != null) {
            group.add(values.get(row));
          }
        }
        if (stats == null || stats.bbox() == null) {
          continue;
        }
        // A GEOGRAPHY writer's box can miss a vertex by a rounding error (its edges are computed on the
        // sphere): the pruning widens such boxes by GeospatialPruning's margin, and so does this check.
        GeospatialStatistics.BoundingBox box = geo.logicalType().startsWith("GEOGRAPHY")
            ? widen(stats.bbox(), 1e-9) : stats.bbox();
        boxes++;
        wrapping += box.wraps() ? 1 : 0;
        for (byte[] v : group) {
          int type = Wkb.coordinates(v, 0, v.length, (x, y, z, m) -> {
            String where = file.getFileName() + " row group " + rg.index() + ": (" + x + " " + y + ") in " + box;
            if (!Double.isNaN(x)) {
              assertTrue(box.wraps() ? x >= box.xmin() || x <= box.xmax() : x >= box.xmin() && x <= box.xmax(), where);
            }
            if (!Double.isNaN(y)) {
              assertTrue(y >= box.ymin() && y <= box.ymax(), where);
            }
            if (!Double.isNaN(z)) {
              assertTrue(z >= box.zmin() && z <= box.zmax(), where);
            }
            if (!Double.isNaN(m)) {
              assertTrue(m >= box.mmin() && m <= box.mmax(), where);
            }
          });
          if (stats.types() != null && !stats.types().isEmpty()) {
            assertTrue(stats.types().contains(type), file.getFileName() + " type " + type + " in " + stats.types());
          }
        }
      }
    }
    assertTrue(boxes > 150, "row groups with a bounding box: " + boxes);
    assertTrue(wrapping >= 3, "row groups whose box wraps: " + wrapping);
  }

  static GeospatialStatistics.BoundingBox widen(GeospatialStatistics.BoundingBox b, double by) {
    return new GeospatialStatistics.BoundingBox(b.xmin() - by, b.xmax() + by, b.ymin() - by, b.ymax() + by, b.zmin(),
        b.zmax(), b.mmin(), b.mmax());
  }

  /**
   * {@code INTERSECTS BOX(...)} over random boxes (some across the antimeridian): every row with a
   * vertex in the box is returned (for GEOGRAPHY, a vertex inside means the value intersects, whatever
   * its edges do), and row groups whose box lies apart are not read.
   */
  @Test
  void intersectsKeepsEveryRowWithAPointInTheBox() throws Exception {
    java.util.Random random = new java.util.Random(20261128);
    long pruned = 0;
    long kept = 0;
    for (String name : List.of("geography-points.parquet", "geography-lines.parquet", "geography-polygons.parquet",
        "geospatial.parquet")) {
      Path file = DIR.resolve(name);
      FileMetadata meta = footer(file);
      ColumnDescriptor geo = geoColumn(meta);
      List<byte[]> values = values(file, geo.dottedPath());
      long[] groupStart = groupStarts(meta);
      for (int b = 0; b < 40; b++) {
        double w = b % 4 == 0 ? 2 + random.nextDouble() * 20 : 20 + random.nextDouble() * 100;
        double h = 2 + random.nextDouble() * 40;
        double x0 = -180 + random.nextDouble() * 360;
        double x1 = x0 + w > 180 ? x0 + w - 360 : x0 + w; // wraps past the antimeridian
        double y0 = -90 + random.nextDouble() * (180 - h);
        if (name.equals("geospatial.parquet")) { // its coordinates lie in [10, 50]
          x0 = 5 + random.nextDouble() * 45;
          x1 = x0 + random.nextDouble() * 10;
          y0 = 5 + random.nextDouble() * 45;
          h = random.nextDouble() * 10;
        }
        Predicate.Intersects box = new Predicate.Intersects(geo.dottedPath(), x0, y0, x1, y0 + h);
        ScanMetrics metrics = new ScanMetrics();
        java.util.Set<Long> returned = scanRows(file, meta, geo, box, metrics);
        for (int row = 0; row < values.size(); row++) {
          byte[] v = values.get(row);
          boolean[] inside = {false};
          if (v != null) {
            Wkb.coordinates(v, 0, v.length, (x, y, z, m) -> inside[0] |= y >= box.ymin() && y <= box.ymax()
                && (box.xmin() <= box.xmax() ? x >= box.xmin() && x <= box.xmax() : x >= box.xmin() || x <= box.xmax()));
          }
          assertTrue(!inside[0] || returned.contains((long) row), name + " row " + row + " has a point in " + box);
        }
        long groupsPruned = metrics.rowGroupsPrunedByGeospatialStatistics();
        long groupsRead = returned.stream().map(r -> {
          int g = 0;
          while (g + 1 < groupStart.length && groupStart[g + 1] <= r) {
            g++;
          }
          return g;
        }).distinct().count();
        assertEquals(meta.rowGroups().size(), groupsPruned + groupsRead, name + " " + box);
        pruned += groupsPruned;
        kept += groupsRead;
      }
    }
    assertTrue(pruned > 2 * kept, "row groups pruned " + pruned + ", read " + kept);
  }

  /** Each row group's first row in the file. */
  static long[] groupStarts(FileMetadata meta) {
    long[] out = new long[meta.rowGroups().size()];
    for (int g = 1; g < out.length; g++) {
      out[g] = out[g - 1] + meta.rowGroups().get(g - 1).numRows();
    }
    return out;
  }

  /** The rows (file positions) a scan with {@code filter} returns. */
  static java.util.Set<Long> scanRows(Path file, FileMetadata meta, ColumnDescriptor column, Predicate filter,
      ScanMetrics metrics) throws IOException {
    java.util.Set<Long> out = new java.util.HashSet<>();
    long[] groupStart = groupStarts(meta);
    ScanOptions options = ScanOptions.defaults();
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
    try (ScanPools pools = ScanPools.forOptions(options)) {
      ScanContext context = new ScanContext(path.getFileSystem(new Configuration()), options,
          new TrackingBufferSource(), pools.scanPool(), pools.decodePool(), metrics);
      try (ParquetFileScanner scanner = ParquetFileScanner.open(context, path, meta, List.of(column.dottedPath()),
          filter)) {
        for (Batch batch; (batch = scanner.next()) != null; ) {
          for (int i = 0; i < batch.rows(); i++) {
            out.add(groupStart[batch.rowGroup()] + batch.row(i));
          }
        }
      }
    }
    return out;
  }

  @Test
  void filterTextAndBinding() {
    Predicate p = Predicate.parse("geometry INTERSECTS box(170, -10.5, -170, 10)");
    assertEquals(new Predicate.Intersects("geometry", 170, -10.5, -170, 10), p);
    assertThrows(IllegalArgumentException.class, () -> Predicate.parse("g INTERSECTS BOX(0, 10, 1, 5)"));
    assertThrows(IllegalArgumentException.class, () -> Predicate.parse("g INTERSECTS BOX(0, 1, 2)"));
    assertThrows(IllegalArgumentException.class, () -> Predicate.parse("g INTERSECTS (0, 1, 2, 3)"));
  }

  @Test
  void xRangesWrapAtTheAntimeridian() {
    assertTrue(Geospatial.overlaps(170, -170, 175, 179)); // wrapping box, plain query inside its east part
    assertTrue(Geospatial.overlaps(170, -170, -179, -175));
    assertTrue(!Geospatial.overlaps(170, -170, -160, 160));
    assertTrue(Geospatial.overlaps(-175, 175, 170, -170)); // plain box, wrapping query
    assertTrue(!Geospatial.overlaps(-160, 160, 165, -165));
    assertTrue(Geospatial.overlaps(170, -170, 160, -160)); // both wrap: both hold 180
    assertTrue(Geospatial.overlaps(0, 10, 10, 20));
    assertTrue(!Geospatial.overlaps(0, 10, 10.5, 20));
  }

  @Test
  void noBoxIsTrustedWithANanBound() throws IOException {
    FileMetadata meta = footer(DIR.resolve("geospatial-with-nan.parquet"));
    GeospatialStatistics stats = meta.rowGroups().get(0).column(geoColumn(meta).index()).geospatial();
    assertNotNull(stats);
    if (stats.bbox() != null) {
      GeospatialStatistics.BoundingBox b = stats.bbox();
      assertTrue(!Double.isNaN(b.xmin() + b.xmax() + b.ymin() + b.ymax()), b.toString());
    }
  }

  @Test
  void hostileWkbIsRefusedNotTrusted() {
    byte[] point = {1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0x40};
    assertEquals("POINT (1 2)", Wkb.toText(point, 0, point.length));
    assertThrows(IllegalArgumentException.class, () -> Wkb.toText(point, 0, point.length - 1));
    byte[] hugeLine = {1, 2, 0, 0, 0, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f};
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Wkb.toText(hugeLine, 0, hugeLine.length));
    assertTrue(e.getMessage().contains("bytes"), e.getMessage());
    byte[] badType = {1, 9, 0, 0, 0};
    assertThrows(IllegalArgumentException.class, () -> Wkb.toText(badType, 0, badType.length));
    byte[] deep = new byte[9 * (Wkb.MAX_DEPTH + 2)];
    for (int i = 0; i < Wkb.MAX_DEPTH + 2; i++) { // collections of one collection, deeper than allowed
      deep[9 * i] = 1;
      deep[9 * i + 1] = 7;
      deep[9 * i + 5] = (byte) (i < Wkb.MAX_DEPTH + 1 ? 1 : 0);
    }
    assertThrows(IllegalArgumentException.class, () -> Wkb.toText(deep, 0, deep.length));
  }
}
