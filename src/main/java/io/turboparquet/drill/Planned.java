package io.turboparquet.drill;

import io.turboparquet.decode.HalfFloat;
import io.turboparquet.format.ColumnDescriptor;
import java.math.BigInteger;
import org.apache.drill.common.types.TypeProtos.MinorType;
import org.apache.drill.exec.store.parquet.ParquetReaderUtility.DateCorruptionStatus;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.OriginalType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The types Drill plans with where turbo-parquet reads a column as another type than the built-in
 * reader ({@link DrillColumn}): Drill's planner types each column from this metadata
 * ({@code ParquetReaderUtility.getMinorType}) and cannot compare, cast or prune the UINT2/UINT4/UINT8
 * it would make of unsigned integers, nor the VARBINARY of FLOAT16. Flat top-level columns only,
 * as {@link DrillColumn} reads them; every other column is planned as stored.
 */
enum Planned {
  AS_STORED(null, null, 0),
  /** UINT_8, UINT_16: INT, the bounds' bits as they are (values below 2^16). */
  SMALL_UNSIGNED_AS_INT(PrimitiveTypeName.INT32, null, 0),
  /** UINT_32: BIGINT, bounds zero-extended. */
  UINT32_AS_BIGINT(PrimitiveTypeName.INT64, null, 0),
  /** UINT_64: VARDECIMAL(20,0), bounds as the big-endian two's complement bytes of the unsigned value. */
  UINT64_AS_DECIMAL(PrimitiveTypeName.BINARY, OriginalType.DECIMAL, 20),
  /** FLOAT16: FLOAT4, bounds widened exactly. */
  FLOAT16_AS_FLOAT(PrimitiveTypeName.FLOAT, null, 0);

  /** The readings that type columns (session options do not change the types decided here). */
  private static final DrillPredicates.Reading TYPES = reading(false);
  private static final DrillPredicates.Reading BUILT_IN_TYPES = reading(true);

  final PrimitiveTypeName primitive;
  final OriginalType original;
  final int precision;

  Planned(PrimitiveTypeName primitive, OriginalType original, int precision) {
    this.primitive = primitive;
    this.original = original;
    this.precision = precision;
  }

  /**
   * How {@code c} is planned: as stored where {@link DrillColumn} reads it as the built-in reader
   * does (always under {@code builtInTypes}), else as the type it reads it as.
   */
  static Planned of(ColumnDescriptor c, boolean builtInTypes) {
    if (builtInTypes || !c.isFlat() || c.path().size() > 1) {
      return AS_STORED;
    }
    DrillColumn turbo;
    DrillColumn builtIn;
    try {
      turbo = DrillColumn.of(c, TYPES);
      builtIn = DrillColumn.of(c, BUILT_IN_TYPES);
    } catch (RuntimeException e) {
      return AS_STORED; // a column the reader refuses: its query fails anyway
    }
    if (turbo.type().getMinorType() == builtIn.type().getMinorType()) {
      return AS_STORED;
    }
    return switch (turbo.conversion()) {
      case UINT32_TO_LONG -> UINT32_AS_BIGINT;
      case ULONG_TO_DECIMAL -> UINT64_AS_DECIMAL;
      case HALF_TO_FLOAT -> FLOAT16_AS_FLOAT;
      case COPY -> turbo.type().getMinorType() == MinorType.INT ? SMALL_UNSIGNED_AS_INT : AS_STORED;
      default -> AS_STORED; // a type whose bounds this does not convert: Drill plans as the built-in reader
    };
  }

  /** The stored bounds ({@code min}, {@code max}: statistics bytes) as the planned type's values, or null. */
  Object[] bounds(byte[] min, byte[] max) {
    return switch (this) {
      case SMALL_UNSIGNED_AS_INT -> new Object[] {DrillFileMetadata.int32(min), DrillFileMetadata.int32(max)};
      case UINT32_AS_BIGINT -> new Object[] {DrillFileMetadata.int32(min) & 0xFFFF_FFFFL,
          DrillFileMetadata.int32(max) & 0xFFFF_FFFFL};
      case UINT64_AS_DECIMAL -> new Object[] {unsigned64(min), unsigned64(max)};
      case FLOAT16_AS_FLOAT -> DrillFileMetadata.floats(HalfFloat.toFloat(DrillFileMetadata.int16(min)),
          HalfFloat.toFloat(DrillFileMetadata.int16(max)));
      case AS_STORED -> throw new IllegalStateException("stored bounds are Drill's own");
    };
  }

  private static DrillPredicates.Reading reading(boolean builtInTypes) {
    return new DrillPredicates.Reading(false, false, false, builtInTypes, name -> false,
        DateCorruptionStatus.META_SHOWS_NO_CORRUPTION);
  }

  private static Binary unsigned64(byte[] b) {
    return Binary.fromConstantByteArray(
        new BigInteger(Long.toUnsignedString(DrillFileMetadata.int64(b))).toByteArray());
  }
}
