package io.lancecodec.runtime;

import io.lancecodec.format.pb.v21.BlobLayout;
import io.lancecodec.format.pb.v21.PageLayout;
import io.lancecodec.format.pb.v21.RepDefLayer;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.EncodedPage;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LayoutContext;
import io.lancecodec.spi.LayoutPlugin;
import io.lancecodec.spi.LevelLayer;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.PageInput;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Writes a page of a blob column ({@code lance-encoding:blob} on large_binary, the v1 blob
 * layout): each non-empty value goes to the file on its own, and the page holds one description
 * per row, a packed struct of (position, size), wrapped in a {@code BlobLayout}. An empty value
 * is (0, 0); a null (of the value or of a struct above it) is (definition level shifted left by
 * 16, 0), so the descriptions need no levels of their own.
 */
final class BlobColumn {
  static final String KEY = "lance-encoding:blob";

  private BlobColumn() {}

  /** Where the file writer put a buffer. */
  interface Sink {
    long write(byte[] bytes) throws IOException;
  }

  /** True for a field the reference writes as a blob: the key present, whatever its value. */
  static boolean isBlob(Field f) {
    return f.getMetadata() != null && f.getMetadata().containsKey(KEY);
  }

  /**
   * Blob fields must be large_binary, at the top level or under structs only: lance 7.0.0 writes
   * a blob under a list with one description per item and no repetition levels, so the list
   * boundaries are lost and neither it nor we can read such a file back.
   */
  static void check(Leaf leaf) {
    Field f = leaf.leafField();
    if (!(f.getType() instanceof ArrowType.LargeBinary)) {
      throw LanceCodecException.invalidArgument("field '" + f.getName() + "': " + KEY + " needs large_binary values, not " + f.getType());
    }
    for (int j = 0; j < leaf.path().size() - 1; j++) {
      if (Leaf.kind(leaf.path().get(j)) != Leaf.Kind.STRUCT) {
        throw LanceCodecException.unsupported("blob field '" + LanceFileWriter.columnName(leaf) + "' under "
            + leaf.path().get(j).getType() + " '" + leaf.path().get(j).getName()
            + "' is not supported: only structs may hold blob fields (the reference writes blobs under lists without their list levels)");
      }
    }
  }

  /**
   * {@code values}: one slot per row (null slots included); {@code def}: the rows' definition
   * levels, null without nulls; {@code layers}: inner-most first, the blob's item layer and then
   * one per struct above it. Under structs the rows are still the column's rows (no lists), so
   * a null at any level is its definition level in a description and the page needs no levels.
   */
  static EncodedPage encode(DataBlock.VariableWidth values, short[] def, List<LevelLayer> layers, long rows, Sink sink,
      LayoutPlugin layout, LayoutContext ctx) throws IOException {
    int n = LanceCodecException.checkedInt(rows, "blob rows");
    byte[] positions = new byte[n * 8];
    byte[] sizes = new byte[n * 8];
    for (int i = 0; i < n; i++) {
      long start = values.offset(i);
      long size = values.offset(i + 1) - start;
      long position = 0;
      if (def != null && def[i] != 0) {
        position = (long) (def[i] & 0xFFFF) << 16;
        size = 0;
      } else if (size > 0) {
        position = sink.write(java.util.Arrays.copyOfRange(values.data(), (int) start, (int) (start + size)));
      }
      LittleEndian.putLong(positions, i * 8, position);
      LittleEndian.putLong(sizes, i * 8, size);
    }
    DataBlock descriptions = new DataBlock.Struct(
        List.of(new DataBlock.FixedWidth(positions, 64, n), new DataBlock.FixedWidth(sizes, 64, n)), n);
    PageInput input = new PageInput(descriptions, null, null, List.of(LevelLayer.ALL_VALID_ITEM), n,
        new FieldOptions(Map.of("lance-encoding:packed", "true")));
    EncodedPage inner = layout.encode(input, ctx);
    BlobLayout.Builder blob = BlobLayout.newBuilder().setInnerLayout((PageLayout) inner.layout());
    for (LevelLayer l : layers) {
      blob.addLayers(RepDefLayer.valueOf("REPDEF_" + l.name()));
    }
    PageLayout wrapped = PageLayout.newBuilder().setBlobLayout(blob).build();
    return new EncodedPage(inner.buffers(), wrapped, rows);
  }
}
