package io.lancecodec.layout.physical;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.PageInput;
import java.util.Arrays;

/** Facts about a page's values that layouts decide by: their width, their levels, a constant. */
public final class PageValues {
  private PageValues() {}

  /** One level per value (0 = valid item), from a nested page's levels: those that carry a value. */
  public static short[] valueLevels(PageInput page) {
    short[] def = page.defLevels();
    if (def == null) {
      return null;
    }
    int maxVisible = Levels.maxVisibleDef(page.layers());
    short[] out = new short[LanceCodecException.checkedInt(page.values().numValues(), "values")];
    int v = 0;
    for (short d : def) {
      if ((d & 0xFFFF) <= maxVisible) {
        if (v == out.length) {
          throw LanceCodecException.internal("levels name more values than the page holds");
        }
        out[v++] = d;
      }
    }
    return out;
  }

  public static long maxValueBytes(DataBlock block) {
    if (block instanceof DataBlock.FixedWidth fw) {
      return fw.bitsPerValue() / 8;
    }
    if (block instanceof DataBlock.FixedSizeList fsl) {
      return maxValueBytes(fsl.child()) * fsl.dimension();
    }
    if (block instanceof DataBlock.Nullable nb) {
      // like the reference's statistic, item validity does not count towards the width
      return maxValueBytes(nb.data());
    }
    if (block instanceof DataBlock.VariableWidth vw) {
      long max = 0;
      for (int i = 0; i < vw.numValues(); i++) {
        max = Math.max(max, vw.offset(i + 1) - vw.offset(i));
      }
      return max;
    }
    return 0;
  }

  /**
   * The scalar if every valid value equals it (at least one valid), else null; {@code def} has
   * one level per value (0 = valid) or is null when all are valid.
   */
  public static byte[] constantValue(DataBlock values, short[] def) {
    int n = LanceCodecException.checkedInt(values.numValues(), "page values");
    byte[] first = null;
    if (values instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() % 8 == 0) {
      int w = fw.bitsPerValue() / 8;
      byte[] d = fw.data();
      int firstIdx = -1;
      for (int i = 0; i < n; i++) {
        if (def != null && def[i] != 0) {
          continue;
        }
        if (firstIdx < 0) {
          firstIdx = i;
        } else if (!Arrays.equals(d, i * w, i * w + w, d, firstIdx * w, firstIdx * w + w)) {
          return null;
        }
      }
      return firstIdx < 0 ? null : Arrays.copyOfRange(d, firstIdx * w, firstIdx * w + w);
    }
    if (values instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() == 1) {
      int seen = -1;
      for (int i = 0; i < n; i++) {
        if (def != null && def[i] != 0) {
          continue;
        }
        int bit = (fw.data()[i >>> 3] >> (i & 7)) & 1;
        if (seen < 0) {
          seen = bit;
        } else if (bit != seen) {
          return null;
        }
      }
      return seen < 0 ? null : new byte[] {(byte) seen};
    }
    if (values instanceof DataBlock.VariableWidth vw) {
      for (int i = 0; i < n; i++) {
        if (def != null && def[i] != 0) {
          continue;
        }
        int s = (int) vw.offset(i);
        int e = (int) vw.offset(i + 1);
        if (first == null) {
          first = Arrays.copyOfRange(vw.data(), s, e);
        } else if (!Arrays.equals(vw.data(), s, e, first, 0, first.length)) {
          return null;
        }
      }
      return first;
    }
    return null;
  }
}
