package io.lancecodec.runtime.shred;

import io.lancecodec.runtime.arrow.Leaf;
import io.lancecodec.spi.LanceCodecException;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Which columns are blob columns ({@code lance-encoding:blob} on large_binary) and where they
 * may be: the layout stores their values outside the pages.
 */
public final class BlobColumn {
  static final String KEY = "lance-encoding:blob";

  private BlobColumn() {}

  /** True for a field the reference writes as a blob: the key present, whatever its value. */
  public static boolean isBlob(Field f) {
    return f.getMetadata() != null && f.getMetadata().containsKey(KEY);
  }

  /**
   * Blob fields must be large_binary, at the top level or under structs only: lance 7.0.0 writes
   * a blob under a list with one description per item and no repetition levels, so the list
   * boundaries are lost and neither it nor we can read such a file back.
   */
  public static void check(Leaf leaf) {
    Field f = leaf.leafField();
    if (!(f.getType() instanceof ArrowType.LargeBinary)) {
      throw LanceCodecException.invalidArgument("field '" + f.getName() + "': " + KEY + " needs large_binary values, not " + f.getType());
    }
    for (int j = 0; j < leaf.path().size() - 1; j++) {
      if (Leaf.kind(leaf.path().get(j)) != Leaf.Kind.STRUCT) {
        throw LanceCodecException.unsupported("blob field '" + leaf.columnName() + "' under "
            + leaf.path().get(j).getType() + " '" + leaf.path().get(j).getName()
            + "' is not supported: only structs may hold blob fields (the reference writes blobs under lists without their list levels)");
      }
    }
  }
}
