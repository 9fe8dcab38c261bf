package io.lancecodec.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Message;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/** Blocks, chunk-by-chunk decoding and comparable forms of decoded values for the 2.3 codec tests. */
final class Codec23 {
  private Codec23() {}

  static DataBlock.FixedWidth ints(int bits, int n, long seed, int maxBits) {
    Random rnd = new Random(seed);
    byte[] d = new byte[n * bits / 8];
    for (int i = 0; i < n; i++) {
      long v = maxBits >= 64 ? rnd.nextLong() : rnd.nextLong() & ((1L << maxBits) - 1);
      LittleEndian.putUnsigned(d, i * bits / 8, bits / 8, v);
    }
    return new DataBlock.FixedWidth(d, bits, n);
  }

  static DataBlock.FixedWidth runs(int bits, int n, long seed, int runLength) {
    Random rnd = new Random(seed);
    byte[] d = new byte[n * bits / 8];
    long v = 0;
    for (int i = 0; i < n; i++) {
      if (i % runLength == 0) {
        v = rnd.nextInt(1 << 20);
      }
      LittleEndian.putUnsigned(d, i * bits / 8, bits / 8, v);
    }
    return new DataBlock.FixedWidth(d, bits, n);
  }

  static DataBlock.FixedWidth bools(int n, long seed) {
    byte[] d = new byte[(n + 7) / 8];
    new Random(seed).nextBytes(d);
    return new DataBlock.FixedWidth(d, 1, n);
  }

  static DataBlock.VariableWidth strings(int n, int bits, int maxLen, long seed) {
    Random rnd = new Random(seed);
    int w = bits / 8;
    byte[] offsets = new byte[(n + 1) * w];
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    for (int i = 0; i < n; i++) {
      int l = rnd.nextInt(maxLen + 1);
      for (int k = 0; k < l; k++) {
        data.write('a' + rnd.nextInt(4));
      }
      LittleEndian.putUnsigned(offsets, (i + 1) * w, w, data.size());
    }
    return new DataBlock.VariableWidth(offsets, bits, data.toByteArray(), n);
  }

  /** Fixed-size lists of {@code dims} (outer first) over {@code leaf}, with item validity at the levels marked. */
  static DataBlock.FixedSizeList lists(long rows, long[] dims, boolean[] validity, int leafBits, long seed) {
    Random rnd = new Random(seed);
    long items = rows;
    for (long d : dims) {
      items *= d;
    }
    byte[] leaf = new byte[(int) ((items * leafBits + 7) / 8)];
    rnd.nextBytes(leaf);
    DataBlock b = new DataBlock.FixedWidth(leaf, leafBits, items);
    for (int l = dims.length - 1; l >= 0; l--) {
      long below = rows;
      for (int k = 0; k <= l; k++) {
        below *= dims[k];
      }
      if (validity[l]) {
        byte[] v = new byte[(int) ((below + 7) / 8)];
        rnd.nextBytes(v);
        b = new DataBlock.Nullable(b, v);
      }
      b = new DataBlock.FixedSizeList(b, dims[l], below / dims[l]);
    }
    return (DataBlock.FixedSizeList) b;
  }

  /** Every chunk of {@code c} decoded by {@code dec}, with or without reused buffers, as comparable text. */
  static List<String> decodeChunks(MiniBlockCompressed c, MiniBlockDecompressor dec, boolean reuse) {
    List<String> out = new ArrayList<>();
    int[] pos = new int[c.buffers().size()];
    long item = 0;
    DecodeBuffers buffers = reuse ? new DecodeBuffers() : null;
    for (int k = 0; k < c.chunks().size(); k++) {
      MiniBlockChunk ch = c.chunks().get(k);
      boolean last = k == c.chunks().size() - 1;
      int n = (int) (last ? c.numValues() - item : 1L << ch.logNumValues());
      byte[][] bufs = new byte[pos.length][];
      for (int b = 0; b < pos.length; b++) {
        bufs[b] = java.util.Arrays.copyOfRange(c.buffers().get(b), pos[b], pos[b] + ch.bufferSizes()[b]);
        pos[b] += ch.bufferSizes()[b];
      }
      out.add(text(dec.decompress(MiniBlockBuffers.of(bufs), n, buffers)));
      item += n;
    }
    assertEquals(c.numValues(), item);
    for (int b = 0; b < pos.length; b++) {
      assertEquals(c.buffers().get(b).length, pos[b], "buffer " + b + " consumed by the chunks");
    }
    return out;
  }

  /** A decoded block's values as text: fixed-width values' bytes in hex, variable-width values one by one. */
  static String text(DataBlock b) {
    if (b instanceof DataBlock.FixedWidth fw) {
      return fw.bitsPerValue() + ":" + fw.numValues() + ":" + HexFormat.of().formatHex(fw.data(), 0, fw.usedBytes());
    }
    if (b instanceof DataBlock.VariableWidth vw) {
      StringBuilder sb = new StringBuilder("v" + vw.numValues() + ":");
      for (int i = 0; i < vw.numValues(); i++) {
        sb.append(HexFormat.of().formatHex(vw.data(), (int) vw.offset(i), (int) vw.offset(i + 1))).append(',');
      }
      return sb.toString();
    }
    return b.toString();
  }

  static boolean is23(Message m) {
    return m instanceof io.lancecodec.format.pb.v23.CompressiveEncoding;
  }

  /** Every node of a 2.3 tree is a 2.3 message: nothing of 2.1 nests inside it. */
  static void assertAll23(Message m) {
    assertTrue(m.getDescriptorForType().getFullName().startsWith("lance.encodings23."), m.getDescriptorForType().getFullName());
    for (var f : m.getAllFields().entrySet()) {
      if (f.getValue() instanceof Message child) {
        assertAll23(child);
      } else if (f.getValue() instanceof List<?> list) {
        for (Object o : list) {
          if (o instanceof Message child) {
            assertAll23(child);
          }
        }
      }
    }
  }
}
