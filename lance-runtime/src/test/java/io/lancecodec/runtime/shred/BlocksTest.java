package io.lancecodec.runtime.shred;

import io.lancecodec.spi.DataBlock;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Gathering visible slots keeps item validity of fixed-size lists and every packed struct child. */
class BlocksTest {
  @Test
  void gatherFixedSizeListWithItemValidity() {
    // 4 lists of 3 one-byte items; item validity 0b1011_0110_1101 (LSB = item 0)
    byte[] items = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    byte[] valid = {(byte) 0b0110_1101, (byte) 0b1011};
    DataBlock.FixedSizeList fsl = new DataBlock.FixedSizeList(
        new DataBlock.Nullable(new DataBlock.FixedWidth(items, 8, 12), valid), 3, 4);
    DataBlock.FixedSizeList g = (DataBlock.FixedSizeList) Blocks.gather(fsl, new long[] {1, 3});
    DataBlock.Nullable nb = (DataBlock.Nullable) g.child();
    assertArrayEquals(new byte[] {3, 4, 5, 9, 10, 11}, ((DataBlock.FixedWidth) nb.data()).data());
    // list 1 = items 3..5 -> bits 1,0,1; list 3 = items 9..11 -> bits 1,0,1
    assertEquals(0b101_101, nb.validity()[0] & 0x3F);
    assertEquals(2, g.numValues());
  }

  @Test
  void gatherPackedStructChildren() {
    DataBlock.Struct s = new DataBlock.Struct(List.of(
        new DataBlock.FixedWidth(new byte[] {1, 0, 2, 0, 3, 0}, 16, 3),
        new DataBlock.VariableWidth(new byte[] {0, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 6, 0, 0, 0}, 32, "abcdef".getBytes(), 3)), 3);
    DataBlock.Struct g = (DataBlock.Struct) Blocks.gather(s, new long[] {0, 2});
    assertArrayEquals(new byte[] {1, 0, 3, 0}, ((DataBlock.FixedWidth) g.children().get(0)).data());
    DataBlock.VariableWidth v = (DataBlock.VariableWidth) g.children().get(1);
    assertEquals("adef", new String(v.data(), 0, (int) v.offset(2)));
    assertEquals(1, v.offset(1));
  }
}
