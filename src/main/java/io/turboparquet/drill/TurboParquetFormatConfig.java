package io.turboparquet.drill;

import com.fasterxml.jackson.annotation.JsonTypeName;
import org.apache.drill.common.logical.FormatPluginConfig;

/**
 * The {@code turbo-parquet} format of a file system storage plugin. It has no options yet: knobs of
 * our own will be properties here (per storage plugin, overridable through Drill's table function).
 */
@JsonTypeName(TurboParquetFormatConfig.NAME)
public final class TurboParquetFormatConfig implements FormatPluginConfig {
  public static final String NAME = "turbo-parquet";

  @Override
  public boolean equals(Object o) {
    return o instanceof TurboParquetFormatConfig;
  }

  @Override
  public int hashCode() {
    return NAME.hashCode();
  }

  @Override
  public String toString() {
    return "TurboParquetFormatConfig[]";
  }
}
