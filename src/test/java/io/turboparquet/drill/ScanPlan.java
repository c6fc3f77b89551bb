package io.turboparquet.drill;

import static org.junit.Assert.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.drill.test.ClientFixture;

/**
 * A query's plan with every attribute, and what it says of its one Parquet scan (Drill's group scan
 * and ours print the same fields, in the same order): files, row groups, whether Drill's metadata
 * cache file or the Metastore served it, and the row-count estimates of the scan and of the root.
 */
record ScanPlan(String text, int files, int rowGroups, boolean usedMetadataFile, boolean usedMetastore,
    double scanRows, double rootRows) {
  private static final Pattern SCAN = Pattern.compile(
      "numFiles=(\\d+), numRowGroups=(\\d+), usedMetadataFile=(\\w+), usedMetastore=(\\w+)");
  private static final Pattern SCAN_ROWS = Pattern.compile("Scan\\(.*?rowcount = ([0-9.E]+)");
  private static final Pattern ROOT_ROWS = Pattern.compile("rowcount = ([0-9.E]+)");

  static ScanPlan of(ClientFixture client, String sql) throws Exception {
    String text = client.queryBuilder().sql(sql).explainTextWithAllAttributes();
    Matcher scan = SCAN.matcher(text);
    assertTrue("a Parquet scan in " + text, scan.find());
    return new ScanPlan(text, Integer.parseInt(scan.group(1)), Integer.parseInt(scan.group(2)),
        Boolean.parseBoolean(scan.group(3)), Boolean.parseBoolean(scan.group(4)),
        number(SCAN_ROWS, text), number(ROOT_ROWS, text));
  }

  boolean isTurbo() {
    return text.contains("TurboParquetGroupScan");
  }

  private static double number(Pattern p, String text) {
    Matcher m = p.matcher(text);
    assertTrue(p + " in " + text, m.find());
    return Double.parseDouble(m.group(1));
  }
}
