package io.turboparquet.format;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.KeyValue;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.PageEncodingStats;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Util;

/**
 * Test oracle: decodes footer bytes with parquet-format's generated Thrift classes and converts
 * them into the core's model. It was the reader's footer decoder before the hand-written
 * {@link io.turboparquet.format.thrift.FooterDecoder}, which must produce the same model.
 */
public final class ThriftFooterDecoder {
  private ThriftFooterDecoder() {}

  /** Decodes {@code footer[offset, offset + length)} of {@code file}. */
  public static FileMetadata decode(String file, long fileLength, byte[] footer, int offset, int length)
      throws ParquetCorruptionException {
    FileMetaData meta;
    try {
      meta = Util.readFileMetaData(new ByteArrayInputStream(footer, offset, length));
    } catch (IOException | RuntimeException e) {
      throw new ParquetCorruptionException(file, "cannot decode the footer (" + length + " bytes): " + e.getMessage(), e);
    }
    return convert(file, fileLength, length, meta);
  }

  static FileMetadata convert(String file, long fileLength, int footerLength, FileMetaData meta)
      throws ParquetCorruptionException {
    ParquetCorruptionException.validate(meta.isSetSchema() && !meta.getSchema().isEmpty(), file,
        "FileMetaData.schema is missing");
    Schema schema = new SchemaBuilder(file, meta.getSchema()).build();
    List<RowGroupMeta> rowGroups = new ArrayList<>();
    if (meta.isSetRow_groups()) {
      int index = 0;
      for (RowGroup rg : meta.getRow_groups()) {
        rowGroups.add(convertRowGroup(file, fileLength, schema, index++, rg));
      }
    }
    Map<String, String> kv = new LinkedHashMap<>();
    if (meta.isSetKey_value_metadata()) {
      for (KeyValue e : meta.getKey_value_metadata()) {
        kv.put(e.getKey(), e.getValue() == null ? "" : e.getValue());
      }
    }
    ParquetCorruptionException.validate(meta.getNum_rows() >= 0, file, "FileMetaData.num_rows is negative: %d",
        meta.getNum_rows());
    List<ColumnOrder> orders = new ArrayList<>();
    if (meta.isSetColumn_orders()) {
      // parquet-format's generated union knows TYPE_ORDER only; any other member leaves it unset.
      for (org.apache.parquet.format.ColumnOrder o : meta.getColumn_orders()) {
        orders.add(o.isSetTYPE_ORDER() ? ColumnOrder.TYPE_DEFINED : ColumnOrder.UNKNOWN);
      }
      if (orders.size() != schema.columns().size()) {
        orders = java.util.Collections.nCopies(schema.columns().size(), ColumnOrder.UNKNOWN);
      }
    }
    return new FileMetadata(file, fileLength, footerLength, meta.getNum_rows(), meta.getCreated_by(), schema,
        rowGroups, kv, orders);
  }

  private static RowGroupMeta convertRowGroup(String file, long fileLength, Schema schema, int index, RowGroup rg)
      throws ParquetCorruptionException {
    List<ColumnDescriptor> leaves = schema.columns();
    ParquetCorruptionException.validate(rg.getColumnsSize() == leaves.size(), file,
        "row group %d has %d column chunks, the schema %d leaves", index, rg.getColumnsSize(), leaves.size());
    ParquetCorruptionException.validate(rg.getNum_rows() >= 0, file, "row group %d: RowGroup.num_rows is negative",
        index);
    List<ColumnChunkMeta> chunks = new ArrayList<>(leaves.size());
    for (int i = 0; i < leaves.size(); i++) {
      ColumnChunk cc = rg.getColumns().get(i);
      ColumnDescriptor column = leaves.get(i);
      ParquetCorruptionException.validate(cc.isSetMeta_data(), file,
          "row group %d column %s: ColumnChunk.meta_data is missing (encrypted or external columns are not supported)",
          index, column.dottedPath());
      ColumnMetaData md = cc.getMeta_data();
      String where = "row group " + index + " column " + column.dottedPath() + ": ";
      ParquetCorruptionException.validate(md.getTotal_compressed_size() >= 0, file,
          "%sColumnMetaData.total_compressed_size is negative", where);
      ParquetCorruptionException.validate(md.getNum_values() >= 0, file, "%sColumnMetaData.num_values is negative",
          where);
      ParquetCorruptionException.validate(md.getData_page_offset() >= 0 && md.getData_page_offset() < fileLength,
          file, "%sColumnMetaData.data_page_offset %d is outside the file (%d bytes)", where,
          md.getData_page_offset(), fileLength);
      long dictOffset = -1;
      // Some old writers set dictionary_page_offset to 0 when there is no dictionary.
      if (md.isSetDictionary_page_offset() && md.getDictionary_page_offset() > 0) {
        dictOffset = md.getDictionary_page_offset();
        ParquetCorruptionException.validate(dictOffset < fileLength, file,
            "%sColumnMetaData.dictionary_page_offset %d is outside the file", where, dictOffset);
      }
      List<Encoding> encodings = new ArrayList<>();
      boolean unknownEncodings = false;
      for (org.apache.parquet.format.Encoding e : md.getEncodings()) {
        try {
          encodings.add(Encoding.fromThriftId(e.getValue()));
        } catch (IllegalArgumentException unknown) {
          // A future encoding listed in the metadata is only fatal if a page uses it.
          unknownEncodings = true;
        }
      }
      EncodingStats stats = null;
      if (md.isSetEncoding_stats()) {
        int data = 0;
        int dictionary = 0;
        for (PageEncodingStats s : md.getEncoding_stats()) {
          int bit;
          try {
            bit = s.getEncoding() == null ? EncodingStats.UNKNOWN
                : EncodingStats.bit(Encoding.fromThriftId(s.getEncoding().getValue()));
          } catch (IllegalArgumentException unknown) {
            bit = EncodingStats.UNKNOWN;
          }
          PageType type = s.getPage_type();
          if (type == PageType.DATA_PAGE || type == PageType.DATA_PAGE_V2) {
            data |= bit;
          } else if (type == PageType.DICTIONARY_PAGE) {
            dictionary |= bit;
          } else if (type != PageType.INDEX_PAGE) {
            data |= EncodingStats.UNKNOWN;
          }
        }
        stats = new EncodingStats(data, dictionary);
      }
      BloomFilterLocation bloom = md.isSetBloom_filter_offset() && md.getBloom_filter_offset() >= 0
          ? new BloomFilterLocation(md.getBloom_filter_offset(), md.getBloom_filter_length()) : null;
      CompressionCodec codec = CompressionCodec.fromThriftId(md.getCodec().getValue());
      chunks.add(new ColumnChunkMeta(column, new ChunkCoding(codec, codec.ordinal(), encodings, unknownEncodings,
          stats), md.getNum_values(), md.getTotal_compressed_size(), md.getTotal_uncompressed_size(),
          md.getData_page_offset(), dictOffset, null, -1, 0, -1, 0, bloom, null));
    }
    return new RowGroupMeta(index, rg.getNum_rows(), rg.getTotal_byte_size(), chunks);
  }

  /** Rebuilds the schema tree from Thrift's depth-first list of elements. */
  private static final class SchemaBuilder {
    private final String file;
    private final List<SchemaElement> elements;
    private final List<ColumnDescriptor> leaves = new ArrayList<>();
    private int next;

    SchemaBuilder(String file, List<SchemaElement> elements) {
      this.file = file;
      this.elements = elements;
    }

    Schema build() throws ParquetCorruptionException {
      SchemaElement rootElement = elements.get(0);
      next = 1;
      List<SchemaNode> children = children(rootElement.getNum_children(), new ArrayList<>(), 0, 0);
      ParquetCorruptionException.validate(next == elements.size(), file,
          "FileMetaData.schema has %d elements but the tree uses %d", elements.size(), next);
      SchemaNode root = new SchemaNode(rootElement.getName(), Repetition.REQUIRED, null, children, null);
      return new Schema(root, leaves);
    }

    private List<SchemaNode> children(int count, List<String> parentPath, int def, int rep)
        throws ParquetCorruptionException {
      ParquetCorruptionException.validate(count >= 0 && count <= elements.size() - next, file,
          "SchemaElement.num_children %d exceeds the remaining %d schema elements", count, elements.size() - next);
      List<SchemaNode> out = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        out.add(node(parentPath, def, rep));
      }
      return out;
    }

    private SchemaNode node(List<String> parentPath, int def, int rep) throws ParquetCorruptionException {
      SchemaElement e = elements.get(next++);
      Repetition repetition = e.isSetRepetition_type()
          ? Repetition.fromThriftId(e.getRepetition_type().getValue()) : Repetition.OPTIONAL;
      int d = def + (repetition == Repetition.REQUIRED ? 0 : 1);
      int r = rep + (repetition == Repetition.REPEATED ? 1 : 0);
      List<String> path = new ArrayList<>(parentPath);
      path.add(e.getName());
      String logical = logicalType(e);
      if (e.isSetNum_children() && e.getNum_children() > 0) {
        return new SchemaNode(e.getName(), repetition, logical, children(e.getNum_children(), path, d, r), null);
      }
      ParquetCorruptionException.validate(e.isSetType(), file, "SchemaElement.type is missing for leaf %s",
          String.join(".", path));
      PhysicalType type = PhysicalType.fromThriftId(e.getType().getValue());
      int typeLength = 0;
      if (type == PhysicalType.FIXED_LEN_BYTE_ARRAY) {
        ParquetCorruptionException.validate(e.isSetType_length() && e.getType_length() > 0, file,
            "SchemaElement.type_length must be positive for FIXED_LEN_BYTE_ARRAY column %s", String.join(".", path));
        typeLength = e.getType_length();
      }
      ColumnDescriptor column = new ColumnDescriptor(leaves.size(), path, type, typeLength, repetition, d, r, logical);
      leaves.add(column);
      return new SchemaNode(e.getName(), repetition, logical, List.of(), column);
    }
  }

  private static String logicalType(SchemaElement e) {
    if (e.isSetLogicalType()) {
      LogicalType t = e.getLogicalType();
      if (t.isSetDECIMAL()) {
        return "DECIMAL(" + t.getDECIMAL().getPrecision() + "," + t.getDECIMAL().getScale() + ")";
      }
      if (t.isSetTIMESTAMP()) {
        return "TIMESTAMP(" + unit(t.getTIMESTAMP().getUnit()) + "," + t.getTIMESTAMP().isIsAdjustedToUTC() + ")";
      }
      if (t.isSetTIME()) {
        return "TIME(" + unit(t.getTIME().getUnit()) + "," + t.getTIME().isIsAdjustedToUTC() + ")";
      }
      if (t.isSetINTEGER()) {
        return "INTEGER(" + t.getINTEGER().getBitWidth() + "," + t.getINTEGER().isIsSigned() + ")";
      }
      if (t.getSetField() != null) {
        return t.getSetField().getFieldName();
      }
    }
    if (e.isSetConverted_type()) {
      String name = e.getConverted_type().name();
      return name.equals("DECIMAL") ? "DECIMAL(" + e.getPrecision() + "," + e.getScale() + ")" : name;
    }
    return null;
  }

  private static String unit(org.apache.parquet.format.TimeUnit u) {
    return u.isSetMILLIS() ? "MILLIS" : u.isSetMICROS() ? "MICROS" : "NANOS";
  }
}
