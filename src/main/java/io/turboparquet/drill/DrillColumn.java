package io.turboparquet.drill;

import io.netty.buffer.ByteBuf;
import io.netty.util.internal.PlatformDependent;
import io.turboparquet.decode.HalfFloat;
import io.turboparquet.format.ColumnDescriptor;
import io.turboparquet.scan.ColumnBatch;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;
import org.apache.drill.common.exceptions.UserException;
import org.apache.drill.common.types.TypeProtos.DataMode;
import org.apache.drill.common.types.TypeProtos.MajorType;
import org.apache.drill.common.types.TypeProtos.MinorType;
import org.apache.drill.common.types.Types;
import org.apache.drill.exec.exception.OutOfMemoryException;
import org.apache.drill.exec.exception.OversizedAllocationException;
import org.apache.drill.exec.store.parquet.ParquetReaderUtility;
import org.apache.drill.exec.vector.BaseDataValueVector;
import org.apache.drill.exec.vector.FixedWidthVector;
import org.apache.drill.exec.vector.NullableIntVector;
import org.apache.drill.exec.vector.NullableVarBinaryVector;
import org.apache.drill.exec.vector.NullableVarCharVector;
import org.apache.drill.exec.vector.NullableVarDecimalVector;
import org.apache.drill.exec.vector.NullableVector;
import org.apache.drill.exec.vector.ValueVector;
import org.apache.drill.exec.vector.VariableWidthVector;

/**
 * How one flat Parquet column becomes a Drill vector: the Drill type (the same one Drill's built-in
 * reader gives with its default options) and the conversion of a {@link ColumnBatch} into that
 * vector. This increment copies the batch's bytes into buffers the vector allocates; fixed-width
 * values that Drill stores like Parquet (little-endian) and variable-width values (offsets + bytes,
 * the same layout) are copied in bulk, the rest value by value. Vector buffers are DrillBufs, whose
 * plain accessors are the little-endian ones (their *LE accessors byte-swap): only those are used.
 */
final class DrillColumn {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  /** What happens to a batch's values on their way into the vector. */
  enum Conversion {
    /** Same bytes, same width (INT, BIGINT, FLOAT4/8, TIME millis, TIMESTAMP millis, UINT4/8, UINT_8/16 as INT). */
    COPY,
    /** INT32 days to DATE's int64 milliseconds. */
    DAYS_TO_MILLIS,
    /** The same from a file of Drill before 1.9, every date shifted (DRILL-4203): shifted back. */
    SHIFTED_DAYS_TO_MILLIS,
    /** The same from a file that may be such a file: dates beyond Drill's threshold shifted back, as Drill's reader. */
    SUSPECT_DAYS_TO_MILLIS,
    /** INT64 microseconds to TIMESTAMP's int64 milliseconds (truncating, as Drill's reader). */
    MICROS_TO_MILLIS,
    /** INT64 microseconds to TIME's int32 milliseconds. */
    MICROS_TO_MILLIS_INT,
    /** One byte per value to Drill's bitmap. */
    BOOLEAN_BITS,
    /** BYTE_ARRAY offsets and bytes as they are (VARCHAR, VARBINARY, VARDECIMAL from big-endian bytes). */
    VARIABLE,
    /** FIXED_LEN_BYTE_ARRAY / INT96 slots as variable-width values of the fixed length. */
    FIXED_TO_VARIABLE,
    /** INT32 / INT64 unscaled decimal to VARDECIMAL's big-endian two's complement bytes. */
    LONG_TO_DECIMAL,
    /** UINT_64 to VARDECIMAL(20,0): the same, the 64 bits read unsigned (2^63 and up take a ninth byte). */
    ULONG_TO_DECIMAL,
    /** UINT_32 to BIGINT, zero-extended. */
    UINT32_TO_LONG,
    /** FLOAT16 (2 bytes, IEEE 754 half precision, little-endian) to FLOAT4, exactly. */
    HALF_TO_FLOAT,
    /** INT96 (nanos of day, Julian day) to TIMESTAMP milliseconds in the JVM's zone, as Drill's reader. */
    INT96_TO_MILLIS,
    /** INTERVAL's 12 bytes (months, days, millis) into Drill's 16-byte INTERVAL slots. */
    INTERVAL
  }

  /** The Julian day number of 1970-01-01. */
  private static final long JULIAN_EPOCH_DAY = 2_440_588L;

  private final ColumnDescriptor column;
  private final MajorType type;
  private final Conversion conversion;

  private DrillColumn(ColumnDescriptor column, MajorType type, Conversion conversion) {
    this.column = column;
    this.type = type;
    this.conversion = conversion;
  }

  ColumnDescriptor column() {
    return column;
  }

  MajorType type() {
    return type;
  }

  Conversion conversion() {
    return conversion;
  }

  /** Whether the vector is variable-width (offsets and bytes), for the profile's split of copy time. */
  boolean isVariableWidth() {
    return conversion == Conversion.VARIABLE || conversion == Conversion.FIXED_TO_VARIABLE
        || conversion == Conversion.LONG_TO_DECIMAL || conversion == Conversion.ULONG_TO_DECIMAL;
  }

  /** The Drill column for a flat Parquet column, read as Drill's own reader reads it. */
  static DrillColumn of(ColumnDescriptor c, DrillPredicates.Reading reading) {
    if (!c.isFlat() || c.path().size() > 1) {
      throw nested(c);
    }
    DataMode mode = c.isRequired() ? DataMode.REQUIRED : DataMode.OPTIONAL;
    String logical = c.logicalType() == null ? "" : c.logicalType().toUpperCase(Locale.ROOT);
    if (logical.equals("UNKNOWN")) {
      // The NULL logical type: parquet-java gives it no annotation, so Drill's reader reads the
      // physical type (nullable INT for the usual optional INT32), all null as the pages hold nulls.
      logical = "";
    }
    int[] decimal = decimal(logical);
    if (decimal != null) {
      MajorType t = Types.withPrecisionAndScale(MinorType.VARDECIMAL, mode, decimal[0], decimal[1]);
      return switch (c.physicalType()) {
        case INT32, INT64 -> new DrillColumn(c, t, Conversion.LONG_TO_DECIMAL);
        case BYTE_ARRAY -> new DrillColumn(c, t, Conversion.VARIABLE);
        case FIXED_LEN_BYTE_ARRAY -> new DrillColumn(c, t, Conversion.FIXED_TO_VARIABLE);
        default -> throw unsupported(c);
      };
    }
    return switch (c.physicalType()) {
      case BOOLEAN -> new DrillColumn(c, Types.withMode(MinorType.BIT, mode), Conversion.BOOLEAN_BITS);
      case FLOAT -> new DrillColumn(c, Types.withMode(MinorType.FLOAT4, mode), Conversion.COPY);
      case DOUBLE -> new DrillColumn(c, Types.withMode(MinorType.FLOAT8, mode), Conversion.COPY);
      case INT32 -> switch (logical) {
        case "", "INT_8", "INT_16", "INT_32", "INTEGER(8,TRUE)", "INTEGER(16,TRUE)", "INTEGER(32,TRUE)" ->
            new DrillColumn(c, Types.withMode(MinorType.INT, mode), Conversion.COPY);
        case "UINT_8", "UINT_16", "INTEGER(8,FALSE)", "INTEGER(16,FALSE)" -> reading.builtInTypes()
            ? new DrillColumn(c, Types.withMode(MinorType.UINT4, mode), Conversion.COPY)
            : new DrillColumn(c, Types.withMode(MinorType.INT, mode), Conversion.COPY); // 0..65535 fit
        case "UINT_32", "INTEGER(32,FALSE)" -> reading.builtInTypes()
            ? new DrillColumn(c, Types.withMode(MinorType.UINT4, mode), Conversion.COPY)
            : new DrillColumn(c, Types.withMode(MinorType.BIGINT, mode), Conversion.UINT32_TO_LONG);
        case "DATE" -> new DrillColumn(c, Types.withMode(MinorType.DATE, mode), switch (reading.dates()) {
          case META_SHOWS_NO_CORRUPTION -> Conversion.DAYS_TO_MILLIS;
          case META_SHOWS_CORRUPTION -> Conversion.SHIFTED_DAYS_TO_MILLIS;
          case META_UNCLEAR_TEST_VALUES -> Conversion.SUSPECT_DAYS_TO_MILLIS;
        });
        case "TIME_MILLIS", "TIME(MILLIS,TRUE)", "TIME(MILLIS,FALSE)" ->
            new DrillColumn(c, Types.withMode(MinorType.TIME, mode), Conversion.COPY);
        default -> throw unsupported(c);
      };
      case INT64 -> switch (logical) {
        case "", "INT_64", "INTEGER(64,TRUE)", "TIMESTAMP(NANOS,TRUE)", "TIMESTAMP(NANOS,FALSE)",
            "TIME(NANOS,TRUE)", "TIME(NANOS,FALSE)" ->
            new DrillColumn(c, Types.withMode(MinorType.BIGINT, mode), Conversion.COPY);
        case "UINT_64", "INTEGER(64,FALSE)" -> reading.builtInTypes()
            ? new DrillColumn(c, Types.withMode(MinorType.UINT8, mode), Conversion.COPY)
            : new DrillColumn(c, Types.withPrecisionAndScale(MinorType.VARDECIMAL, mode, 20, 0),
                Conversion.ULONG_TO_DECIMAL);
        case "TIMESTAMP_MILLIS", "TIMESTAMP(MILLIS,TRUE)", "TIMESTAMP(MILLIS,FALSE)" ->
            new DrillColumn(c, Types.withMode(MinorType.TIMESTAMP, mode), Conversion.COPY);
        case "TIMESTAMP_MICROS", "TIMESTAMP(MICROS,TRUE)", "TIMESTAMP(MICROS,FALSE)" -> reading.timestampMicrosAsInt64()
            ? new DrillColumn(c, Types.withMode(MinorType.BIGINT, mode), Conversion.COPY)
            : new DrillColumn(c, Types.withMode(MinorType.TIMESTAMP, mode), Conversion.MICROS_TO_MILLIS);
        case "TIME_MICROS", "TIME(MICROS,TRUE)", "TIME(MICROS,FALSE)" -> reading.timeMicrosAsInt64()
            ? new DrillColumn(c, Types.withMode(MinorType.BIGINT, mode), Conversion.COPY)
            : new DrillColumn(c, Types.withMode(MinorType.TIME, mode), Conversion.MICROS_TO_MILLIS_INT);
        default -> throw unsupported(c);
      };
      case INT96 -> reading.int96AsTimestamp()
          ? new DrillColumn(c, Types.withMode(MinorType.TIMESTAMP, mode), Conversion.INT96_TO_MILLIS)
          : new DrillColumn(c, Types.withMode(MinorType.VARBINARY, mode), Conversion.FIXED_TO_VARIABLE);
      case BYTE_ARRAY -> switch (logical) {
        case "UTF8", "STRING", "ENUM" -> new DrillColumn(c, Types.withMode(MinorType.VARCHAR, mode), Conversion.VARIABLE);
        default -> new DrillColumn(c, Types.withMode(MinorType.VARBINARY, mode), Conversion.VARIABLE);
      };
      case FIXED_LEN_BYTE_ARRAY -> switch (logical) {
        case "INTERVAL" -> new DrillColumn(c, Types.withMode(MinorType.INTERVAL, mode), Conversion.INTERVAL);
        case "FLOAT16" -> c.typeLength() == 2 && !reading.builtInTypes()
            ? new DrillColumn(c, Types.withMode(MinorType.FLOAT4, mode), Conversion.HALF_TO_FLOAT)
            : new DrillColumn(c, Types.withMode(MinorType.VARBINARY, mode), Conversion.FIXED_TO_VARIABLE);
        default -> new DrillColumn(c, Types.withMode(MinorType.VARBINARY, mode), Conversion.FIXED_TO_VARIABLE);
      };
    };
  }

  static UserException nested(ColumnDescriptor c) {
    return UserException.unsupportedError()
        .message("turbo-parquet does not read nested column %s yet", c.dottedPath())
        .build(org.slf4j.LoggerFactory.getLogger(DrillColumn.class));
  }

  private static UserException unsupported(ColumnDescriptor c) {
    return UserException.unsupportedError()
        .message("turbo-parquet does not read column %s of type %s %s yet", c.dottedPath(), c.physicalType(),
            c.logicalType())
        .build(org.slf4j.LoggerFactory.getLogger(DrillColumn.class));
  }

  /** {precision, scale} of a "DECIMAL(p,s)" annotation, else null. */
  private static int[] decimal(String logical) {
    if (!logical.startsWith("DECIMAL(") || !logical.endsWith(")")) {
      return null;
    }
    String[] ps = logical.substring("DECIMAL(".length(), logical.length() - 1).split(",");
    return new int[] {Integer.parseInt(ps[0].trim()), Integer.parseInt(ps[1].trim())};
  }

  /**
   * Writes the first {@code rows} rows of {@code batch} into {@code vector} and sets its value count.
   * Per-value conversions run over raw addresses: both sides' capacities are checked once per batch.
   */
  void write(ColumnBatch batch, ValueVector vector, int rows) {
    boolean nullable = vector instanceof NullableVector;
    ValueVector values = nullable ? ((NullableVector) vector).getValuesVector() : vector;
    ByteBuf src = batch.values().values();
    int width = batch.values().width();
    switch (conversion) {
      case COPY -> {
        if (!handOver(batch, values, rows, width)) {
          ((FixedWidthVector) vector).allocateNew(rows);
          data(values).setBytes(0, src, 0, rows * width);
        } else if (nullable) {
          ((FixedWidthVector) ((NullableVector) vector).getBitsVector()).allocateNew(rows);
        }
      }
      case DAYS_TO_MILLIS -> {
        long in = input(src, rows, 4);
        long out = fixedOutput(vector, values, rows, 8);
        for (int i = 0; i < rows; i++) {
          PlatformDependent.putLong(out + 8L * i, PlatformDependent.getInt(in + 4L * i) * MILLIS_PER_DAY);
        }
      }
      case SHIFTED_DAYS_TO_MILLIS, SUSPECT_DAYS_TO_MILLIS -> {
        long in = input(src, rows, 4);
        long out = fixedOutput(vector, values, rows, 8);
        long threshold = conversion == Conversion.SHIFTED_DAYS_TO_MILLIS ? Long.MIN_VALUE
            : ParquetReaderUtility.DATE_CORRUPTION_THRESHOLD;
        for (int i = 0; i < rows; i++) {
          long days = PlatformDependent.getInt(in + 4L * i);
          if (days > threshold) {
            days -= ParquetReaderUtility.CORRECT_CORRUPT_DATE_SHIFT;
          }
          PlatformDependent.putLong(out + 8L * i, days * MILLIS_PER_DAY);
        }
      }
      case MICROS_TO_MILLIS -> {
        long in = input(src, rows, 8);
        long out = fixedOutput(vector, values, rows, 8);
        for (int i = 0; i < rows; i++) {
          PlatformDependent.putLong(out + 8L * i, PlatformDependent.getLong(in + 8L * i) / 1000);
        }
      }
      case UINT32_TO_LONG -> {
        long in = input(src, rows, 4);
        long out = fixedOutput(vector, values, rows, 8);
        for (int i = 0; i < rows; i++) {
          PlatformDependent.putLong(out + 8L * i, PlatformDependent.getInt(in + 4L * i) & 0xffffffffL);
        }
      }
      case HALF_TO_FLOAT -> {
        long in = input(src, rows, 2);
        long out = fixedOutput(vector, values, rows, 4);
        for (int i = 0; i < rows; i++) {
          PlatformDependent.putInt(out + 4L * i, HalfFloat.toFloatBits(PlatformDependent.getShort(in + 2L * i)));
        }
      }
      case MICROS_TO_MILLIS_INT -> {
        long in = input(src, rows, 8);
        long out = fixedOutput(vector, values, rows, 4);
        for (int i = 0; i < rows; i++) {
          PlatformDependent.putInt(out + 4L * i, (int) (PlatformDependent.getLong(in + 8L * i) / 1000));
        }
      }
      case INT96_TO_MILLIS -> {
        long in = input(src, rows, 12);
        long out = fixedOutput(vector, values, rows, 8);
        TimeZone zone = TimeZone.getDefault();
        for (int i = 0; i < rows; i++) {
          long nanosOfDay = PlatformDependent.getLong(in + 12L * i);
          long day = PlatformDependent.getInt(in + 12L * i + 8);
          long utc = (day - JULIAN_EPOCH_DAY) * MILLIS_PER_DAY + nanosOfDay / 1_000_000;
          PlatformDependent.putLong(out + 8L * i, utc + zone.getOffset(utc));
        }
      }
      case INTERVAL -> {
        long in = input(src, rows, 12);
        long out = fixedOutput(vector, values, rows, 16);
        for (int i = 0; i < rows; i++) {
          PlatformDependent.copyMemory(in + 12L * i, out + 16L * i, 12);
          PlatformDependent.putInt(out + 16L * i + 12, 0);
        }
      }
      case BOOLEAN_BITS -> {
        long in = input(src, rows, 1);
        ((FixedWidthVector) vector).allocateNew(rows);
        ByteBuf bits = data(values);
        long out = address(bits, (rows + 7) >>> 3);
        bits.setZero(0, (rows + 7) >>> 3);
        for (int i = 0; i < rows; i++) {
          if (PlatformDependent.getByte(in + i) != 0) {
            long at = out + (i >>> 3);
            PlatformDependent.putByte(at, (byte) (PlatformDependent.getByte(at) | (1 << (i & 7))));
          }
        }
      }
      case VARIABLE -> {
        ByteBuf offsets = batch.values().offsets();
        int bytes = offsets.getIntLE(4 * rows);
        allocateVariable(vector, bytes, rows);
        data(values).setBytes(0, src, 0, bytes);
        data(((VariableWidthVector) values).getOffsetVector()).setBytes(0, offsets, 0, 4 * (rows + 1));
      }
      case FIXED_TO_VARIABLE -> {
        int bytes = Math.multiplyExact(width, rows);
        ((VariableWidthVector) vector).allocateNew(Math.max(bytes, 1), rows);
        long out = address(data(((VariableWidthVector) values).getOffsetVector()), 4L * (rows + 1));
        ByteBuf validity = batch.validity();
        if (validity == null) {
          data(values).setBytes(0, src, 0, bytes);
          for (int i = 0; i <= rows; i++) {
            PlatformDependent.putInt(out + 4L * i, i * width);
          }
        } else {
          // Nulls are empty, as from Drill's reader (Drill's copiers assume it).
          long in = input(src, rows, width);
          long data = address(data(values), bytes);
          long valid = address(validity, rows);
          int at = 0;
          PlatformDependent.putInt(out, 0);
          for (int i = 0; i < rows; i++) {
            if (PlatformDependent.getByte(valid + i) != 0) {
              PlatformDependent.copyMemory(in + (long) i * width, data + at, width);
              at += width;
            }
            PlatformDependent.putInt(out + 4L * (i + 1), at);
          }
        }
      }
      case LONG_TO_DECIMAL -> writeDecimals(src, width, values, vector, rows, false);
      case ULONG_TO_DECIMAL -> writeDecimals(src, width, values, vector, rows, true);
    }
    if (nullable) {
      ByteBuf validity = batch.validity();
      ByteBuf bits = data(((NullableVector) vector).getBitsVector());
      if (validity == null) {
        PlatformDependent.setMemory(address(bits, rows), rows, (byte) 1);
      } else {
        bits.setBytes(0, validity, 0, rows);
      }
      markAllSet(vector, rows);
    }
    vector.getMutator().setValueCount(rows);
  }

  /**
   * Zero copy: where the batch's values are a DrillBuf of the operator's allocator laid out as the
   * vector wants them (same width, little-endian), the vector takes that memory and the batch gets a
   * new buffer next time. False if the memory is not a DrillBuf (then the caller copies).
   */
  private static boolean handOver(ColumnBatch batch, ValueVector values, int rows, int width) {
    if (DrillBufferSource.memoryOf(batch.values().values()) == null) {
      return false;
    }
    ByteBuf taken = batch.values().detachValues();
    try {
      int bytes = Math.multiplyExact(rows, width);
      address(taken, bytes);
      values.load(values.getField().getAsBuilder().setValueCount(rows).setBufferLength(bytes).build(),
          DrillBufferSource.memoryOf(taken));
    } finally {
      taken.release(); // the vector holds its own reference
    }
    return true;
  }

  /**
   * INT32 / INT64 unscaled values as VARDECIMAL's minimal big-endian two's complement bytes (what
   * {@code BigInteger.toByteArray} gives), without a BigInteger per value: each value's 8 bytes are
   * written big-endian, shifted so that its minimal form comes first, and the next value overwrites
   * the rest (the buffer has 8 bytes of slack).
   */
  /** Integers to VARDECIMAL bytes; {@code unsigned} 64-bit values of 2^63 and up as a zero byte and their 8 bytes. */
  private static void writeDecimals(ByteBuf src, int width, ValueVector values, ValueVector vector, int rows,
      boolean unsigned) {
    long in = input(src, rows, width);
    int bytes = 0;
    for (int i = 0; i < rows; i++) {
      long v = width == 4 ? PlatformDependent.getInt(in + 4L * i) : PlatformDependent.getLong(in + 8L * i);
      bytes += unsigned && v < 0 ? 9 : decimalLength(v);
    }
    ((VariableWidthVector) vector).allocateNew(bytes + 8, rows);
    long data = address(data(values), bytes + 8L);
    long offsets = address(data(((VariableWidthVector) values).getOffsetVector()), 4L * (rows + 1));
    int at = 0;
    PlatformDependent.putInt(offsets, 0);
    for (int i = 0; i < rows; i++) {
      long v = width == 4 ? PlatformDependent.getInt(in + 4L * i) : PlatformDependent.getLong(in + 8L * i);
      if (unsigned && v < 0) {
        PlatformDependent.putByte(data + at, (byte) 0);
        PlatformDependent.putLong(data + at + 1, Long.reverseBytes(v));
        at += 9;
      } else {
        int n = decimalLength(v);
        PlatformDependent.putLong(data + at, Long.reverseBytes(v << (8 * (8 - n))));
        at += n;
      }
      PlatformDependent.putInt(offsets + 4L * (i + 1), at);
    }
  }

  /**
   * Allocates a variable-width vector for {@code rows} values of {@code bytes} bytes in all. The core
   * bounds a batch's bytes per column, but a single value may be larger than the bound (up to 2
   * GiB); when Drill cannot give a vector that much, the read fails naming the column and sizes
   * (the record reader adds file and row group) instead of with an allocator's stack trace.
   */
  private void allocateVariable(ValueVector vector, int bytes, int rows) {
    try {
      ((VariableWidthVector) vector).allocateNew(Math.max(bytes, 1), rows);
    } catch (OversizedAllocationException | OutOfMemoryException e) {
      throw new IllegalStateException("column " + column.dottedPath() + ": " + (rows == 1 ? "a single value of "
          : rows + " values of ") + bytes + " bytes do not fit a Drill vector (" + e.getMessage() + ")", e);
    }
  }

  /** Bytes of {@code BigInteger.valueOf(v).toByteArray()}: bitLength / 8 + 1. */
  static int decimalLength(long v) {
    return (64 - Long.numberOfLeadingZeros(v < 0 ? ~v : v)) / 8 + 1;
  }

  /** Allocates a fixed-width vector for {@code rows} and returns its values' address. */
  private static long fixedOutput(ValueVector vector, ValueVector values, int rows, int width) {
    ((FixedWidthVector) vector).allocateNew(rows);
    return address(data(values), (long) rows * width);
  }

  /** The address of a batch buffer holding {@code rows} values of {@code width} bytes. */
  private static long input(ByteBuf src, int rows, int width) {
    return address(src, (long) rows * width);
  }

  private static long address(ByteBuf buf, long bytes) {
    if (buf.capacity() < bytes) {
      throw new IllegalStateException("buffer of " + buf.capacity() + " bytes for " + bytes + " bytes of values");
    }
    return buf.memoryAddress();
  }

  /** Fills the vectors of projected columns a file lacks with {@code rows} nulls. */
  static void fillNulls(List<NullableIntVector> missing, int rows) {
    for (NullableIntVector v : missing) {
      v.allocateNew(rows);
      v.getBitsVector().getBuffer().setZero(0, rows);
      v.getMutator().setValueCount(rows);
    }
  }

  /** Variable-width nullable vectors fill "empties" after the last value set through them: none here. */
  private static void markAllSet(ValueVector vector, int rows) {
    if (vector instanceof NullableVarCharVector v) {
      v.getMutator().setSetCount(rows);
    } else if (vector instanceof NullableVarBinaryVector v) {
      v.getMutator().setSetCount(rows);
    } else if (vector instanceof NullableVarDecimalVector v) {
      v.getMutator().setSetCount(rows);
    }
  }

  private static ByteBuf data(ValueVector v) {
    return ((BaseDataValueVector) v).getBuffer();
  }
}
