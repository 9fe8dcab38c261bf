package io.lancecodec.testkit;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A mini-block page's chunks as a layout cuts them out of {@link MiniBlockCompressed}: each
 * chunk's buffers copied into one array with guard bytes before each (so a decoder that ignores
 * its offsets or reads past its sizes decodes garbage), decoded one by one.
 */
public final class MiniBlockChunks {
  private static final byte GUARD = 0x5A;
  private static final int GUARD_BYTES = 3;

  private MiniBlockChunks() {}

  /** Values of each chunk: 2^logNumValues for all but the last, which holds the rest. */
  public static int[] counts(MiniBlockCompressed page) {
    List<MiniBlockChunk> chunks = page.chunks();
    int[] out = new int[chunks.size()];
    long seen = 0;
    for (int c = 0; c < out.length; c++) {
      out[c] = c == out.length - 1 ? (int) (page.numValues() - seen) : 1 << chunks.get(c).logNumValues();
      seen += out[c];
    }
    return out;
  }

  /** Chunk {@code c}'s buffers, with guard bytes before each. */
  public static MiniBlockBuffers chunk(MiniBlockCompressed page, int c) {
    int buffers = page.buffers().size();
    int[] at = new int[buffers];
    for (int k = 0; k < c; k++) {
      for (int i = 0; i < buffers; i++) {
        at[i] += page.chunks().get(k).bufferSizes()[i];
      }
    }
    int[] sizes = page.chunks().get(c).bufferSizes().clone();
    int total = 0;
    for (int s : sizes) {
      total += s + GUARD_BYTES;
    }
    byte[] all = new byte[total];
    Arrays.fill(all, GUARD);
    int[] offsets = new int[buffers];
    int pos = 0;
    for (int i = 0; i < buffers; i++) {
      pos += GUARD_BYTES;
      offsets[i] = pos;
      System.arraycopy(page.buffers().get(i), at[i], all, pos, sizes[i]);
      pos += sizes[i];
    }
    return new MiniBlockBuffers(all, offsets, sizes);
  }

  /**
   * Every chunk decoded by {@code decoder} and joined: fixed-width values back to back, or
   * strings with fresh 32-bit offsets. Odd chunks reuse one {@link DecodeBuffers}, as a scan does.
   */
  public static DataBlock decodeAll(MiniBlockCompressed page, MiniBlockDecompressor decoder) {
    int[] counts = counts(page);
    DecodeBuffers reuse = new DecodeBuffers();
    java.io.ByteArrayOutputStream fixed = new java.io.ByteArrayOutputStream();
    List<byte[]> strings = new ArrayList<>();
    int bits = -1;
    for (int c = 0; c < counts.length; c++) {
      DataBlock d = decoder.decompress(chunk(page, c), counts[c], c % 2 == 1 ? reuse : null);
      if (d.numValues() != counts[c]) {
        throw new AssertionError("chunk " + c + " decoded " + d.numValues() + " values, not " + counts[c]);
      }
      if (d instanceof DataBlock.FixedWidth fw) {
        bits = fw.bitsPerValue();
        fixed.write(fw.data(), 0, (int) (fw.numValues() * fw.bitsPerValue() / 8));
      } else if (d instanceof DataBlock.VariableWidth vw) {
        strings.addAll(Values.strings(vw));
      } else {
        throw new AssertionError("chunk " + c + " decoded to " + d.getClass().getSimpleName());
      }
    }
    if (bits >= 0) {
      return new DataBlock.FixedWidth(fixed.toByteArray(), bits, page.numValues());
    }
    return ValueFamily.strings(strings);
  }
}
