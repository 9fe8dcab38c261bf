package io.lancecodec.testkit;

import io.lancecodec.spi.DataBlock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Assertions;

/** Value-level comparison of blocks, whatever their arrays' spare capacity or offset base. */
public final class Values {
  private Values() {}

  /** The values of a variable-width block, each copied out (its offsets index {@code data} as they are). */
  public static List<byte[]> strings(DataBlock.VariableWidth vw) {
    List<byte[]> out = new ArrayList<>((int) vw.numValues());
    for (int i = 0; i < vw.numValues(); i++) {
      out.add(Arrays.copyOfRange(vw.data(), (int) vw.offset(i), (int) vw.offset(i + 1)));
    }
    return out;
  }

  /** Fails unless {@code actual} holds exactly {@code expected}'s values (bit for bit for floats). */
  public static void assertSame(DataBlock expected, DataBlock actual, String what) {
    Assertions.assertEquals(expected.numValues(), actual.numValues(), what + ": value count");
    if (expected instanceof DataBlock.FixedWidth e) {
      if (!(actual instanceof DataBlock.FixedWidth a) || a.bitsPerValue() != e.bitsPerValue()) {
        throw new AssertionError(what + ": decoded " + describe(actual) + ", expected " + describe(expected));
      }
      int n = e.usedBytes();
      int diff = Arrays.mismatch(e.data(), 0, n, a.data(), 0, Math.min(n, a.data().length));
      if (diff >= 0) {
        throw new AssertionError(what + ": first difference in value " + diff * 8L / e.bitsPerValue() + " of " + e.numValues());
      }
    } else if (expected instanceof DataBlock.VariableWidth e) {
      if (!(actual instanceof DataBlock.VariableWidth a)) {
        throw new AssertionError(what + ": decoded " + describe(actual) + ", expected strings");
      }
      List<byte[]> ev = strings(e);
      List<byte[]> av = strings(a);
      for (int i = 0; i < ev.size(); i++) {
        if (!Arrays.equals(ev.get(i), av.get(i))) {
          throw new AssertionError(what + ": value " + i + " of " + ev.size() + " differs");
        }
      }
    } else {
      throw new AssertionError(what + ": the contract compares fixed- and variable-width blocks only");
    }
  }

  static String describe(DataBlock b) {
    return b instanceof DataBlock.FixedWidth fw ? fw.bitsPerValue() + "-bit values" : b.getClass().getSimpleName();
  }
}
