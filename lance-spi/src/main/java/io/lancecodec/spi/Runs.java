package io.lancecodec.spi;

import java.util.Arrays;

/** Runs of equal fixed-width values in a byte array, as run-length encoders and dictionary trials walk them. */
public final class Runs {
  private Runs() {}

  /** Values compared one by one before a run is taken to be long. */
  private static final int SHORT_RUN = 8;

  /**
   * The end of the run of equal {@code width}-byte values that starts at value {@code start}: the
   * first index in {@code (start, limit)} whose value differs from the one before it, else
   * {@code limit}. Values are compared by their bytes ({@code width} is 1, 2, 4 or 8).
   *
   * <p>A run longer than a few values is finished by the JDK's vectorized mismatch of the values
   * against themselves shifted by one: byte-at-a-time compares walked a run of a thousand u8
   * dictionary indices one load per value.
   */
  public static int end(byte[] data, int start, int limit, int width) {
    int j = start + 1;
    int stop = Math.min(limit, start + SHORT_RUN);
    switch (width) {
      case 1:
        while (j < stop && data[j] == data[start]) {
          j++;
        }
        break;
      case 2: {
        short v = LittleEndian.getShort(data, start * 2);
        while (j < stop && LittleEndian.getShort(data, j * 2) == v) {
          j++;
        }
        break;
      }
      case 4: {
        int v = LittleEndian.getInt(data, start * 4);
        while (j < stop && LittleEndian.getInt(data, j * 4) == v) {
          j++;
        }
        break;
      }
      case 8: {
        long v = LittleEndian.getLong(data, start * 8);
        while (j < stop && LittleEndian.getLong(data, j * 8) == v) {
          j++;
        }
        break;
      }
      default:
        throw LanceCodecException.internal("runs of " + width + "-byte values");
    }
    if (j < stop || j >= limit) {
      return j;
    }
    // values [j - 1, limit - 1) against [j, limit): the first differing byte is in the first value
    // that differs from its successor
    int m = Arrays.mismatch(data, (j - 1) * width, (limit - 1) * width, data, j * width, limit * width);
    return m < 0 ? limit : j + m / width;
  }
}
