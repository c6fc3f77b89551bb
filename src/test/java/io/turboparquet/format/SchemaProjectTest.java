package io.turboparquet.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turboparquet.format.thrift.FooterDecoder;
import io.turboparquet.testing.CorpusFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Schema#project}: leaves by path or by group, in schema order, the first unknown name named. */
class SchemaProjectTest {
  private static Schema schema() throws IOException {
    byte[] b = Files.readAllBytes(CorpusFiles.dir().resolve("nested_maps.snappy.parquet"));
    int length = ByteBuffer.wrap(b, b.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    return FooterDecoder.decode("nested_maps", b.length, b, b.length - 8 - length, length).schema();
  }

  private static List<String> paths(List<ColumnDescriptor> leaves) {
    return leaves.stream().map(ColumnDescriptor::dottedPath).toList();
  }

  @Test
  void namesSelectLeavesAndGroupsInSchemaOrder() throws IOException {
    Schema s = schema();
    assertEquals(List.of("a.key_value.key", "a.key_value.value.key_value.key", "a.key_value.value.key_value.value",
        "b", "c"), paths(s.columns()));
    assertEquals(List.of("b", "c"), paths(s.project(List.of("c", "b"))));
    assertEquals(List.of("a.key_value.value.key_value.key", "a.key_value.value.key_value.value", "c"),
        paths(s.project(List.of("c", "a.key_value.value", "c"))));
    assertEquals(List.of("a.key_value.key"), paths(s.project(List.of("a.key_value.key"))));
    assertEquals(3, s.project(List.of("a")).size());
    assertSame(s.columns(), s.project(List.of()));
  }

  @Test
  void aPrefixOfANameIsNoGroup() throws IOException {
    Schema s = schema();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> s.project(List.of("b", "a.key", "x")));
    assertTrue(e.getMessage().contains("no column a.key "), e.getMessage());
  }
}
