package io.turboparquet.drill;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import java.util.List;
import java.util.Objects;
import org.apache.drill.common.expression.LogicalExpression;
import org.apache.drill.common.expression.SchemaPath;
import org.apache.drill.common.logical.FormatPluginConfig;
import org.apache.drill.common.logical.StoragePluginConfig;
import org.apache.drill.exec.physical.base.PhysicalOperator;
import org.apache.drill.exec.record.metadata.TupleMetadata;
import org.apache.drill.exec.store.ColumnExplorer;
import org.apache.drill.exec.store.StoragePluginRegistry;
import org.apache.drill.exec.store.parquet.AbstractParquetRowGroupScan;
import org.apache.drill.exec.store.parquet.ParquetReaderConfig;
import org.apache.drill.exec.store.parquet.RowGroupReadEntry;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/** The row groups one fragment reads: what {@link TurboParquetGroupScan} sends to each fragment. */
@JsonTypeName("turbo-parquet-row-group-scan")
public final class TurboParquetRowGroupScan extends AbstractParquetRowGroupScan {
  /** The operator type in query profiles. */
  public static final String OPERATOR_TYPE = "TURBO_PARQUET_ROW_GROUP_SCAN";

  private final TurboParquetFormatPlugin formatPlugin;

  @JsonCreator
  public TurboParquetRowGroupScan(@JacksonInject StoragePluginRegistry registry,
      @JsonProperty("userName") String userName,
      @JsonProperty("storageConfig") StoragePluginConfig storageConfig,
      @JsonProperty("formatConfig") FormatPluginConfig formatConfig,
      @JsonProperty("rowGroupReadEntries") List<RowGroupReadEntry> rowGroupReadEntries,
      @JsonProperty("columns") List<SchemaPath> columns,
      @JsonProperty("readerConfig") ParquetReaderConfig readerConfig,
      @JsonProperty("selectionRoot") Path selectionRoot,
      @JsonProperty("filter") LogicalExpression filter,
      @JsonProperty("schema") TupleMetadata schema) {
    this(userName, registry.resolveFormat(storageConfig, formatConfig, TurboParquetFormatPlugin.class),
        rowGroupReadEntries, columns, readerConfig, selectionRoot, filter, schema);
  }

  public TurboParquetRowGroupScan(String userName, TurboParquetFormatPlugin formatPlugin,
      List<RowGroupReadEntry> rowGroupReadEntries, List<SchemaPath> columns, ParquetReaderConfig readerConfig,
      Path selectionRoot, LogicalExpression filter, TupleMetadata schema) {
    super(userName, rowGroupReadEntries, columns, readerConfig, filter, selectionRoot, schema);
    this.formatPlugin = Objects.requireNonNull(formatPlugin, "no turbo-parquet format plugin for this configuration");
  }

  @JsonProperty
  public StoragePluginConfig getStorageConfig() {
    return formatPlugin.getStorageConfig();
  }

  @JsonProperty
  public TurboParquetFormatConfig getFormatConfig() {
    return formatPlugin.getConfig();
  }

  @JsonIgnore
  public TurboParquetFormatPlugin getFormatPlugin() {
    return formatPlugin;
  }

  @Override
  public PhysicalOperator getNewWithChildren(List<PhysicalOperator> children) {
    if (!children.isEmpty()) {
      throw new IllegalArgumentException("a scan has no children");
    }
    return copy(columns);
  }

  @Override
  public String getOperatorType() {
    return OPERATOR_TYPE;
  }

  @Override
  public TurboParquetRowGroupScan copy(List<SchemaPath> columns) {
    return new TurboParquetRowGroupScan(getUserName(), formatPlugin, rowGroupReadEntries, columns, readerConfig,
        selectionRoot, filter, schema);
  }

  @Override
  public Configuration getFsConf(RowGroupReadEntry rowGroupReadEntry) {
    return formatPlugin.getFsConf();
  }

  @Override
  public boolean supportsFileImplicitColumns() {
    return selectionRoot != null;
  }

  @Override
  public List<String> getPartitionValues(RowGroupReadEntry rowGroupReadEntry) {
    return ColumnExplorer.listPartitionValues(rowGroupReadEntry.getPath(), selectionRoot, false);
  }
}
