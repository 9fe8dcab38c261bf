package io.lancecodec.codec.general;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.Flat;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlockDecompressor;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;

/** Slow, obvious stand-ins for the built-in Flat codec and helpers shared by the tests. */
final class TestCodecs {
  private TestCodecs() {}

  static final List<Scheme> SCHEMES = List.of(Scheme.LZ4, Scheme.ZSTD, Scheme.SNAPPY);
  static final int[] SIZES = {0, 1, 1023, 4096, 100_000};

  static CompressiveEncoding flat(int bits) {
    return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
  }

  /** Bytes that compress (runs and a small alphabet) or not, from a seed. */
  static byte[] data(int size, long seed, boolean compressible) {
    Random rnd = new Random(seed);
    byte[] b = new byte[size];
    if (!compressible) {
      rnd.nextBytes(b);
      return b;
    }
    int i = 0;
    while (i < size) {
      byte v = (byte) ('a' + rnd.nextInt(6));
      int run = 1 + rnd.nextInt(12);
      for (int k = 0; k < run && i < size; k++) {
        b[i++] = v;
      }
    }
    return b;
  }

  /** Flat 8-bit mini-block chunks of 4096 values. */
  static final class FlatBytes implements MiniBlockCompressor {
    @Override
    public MiniBlockCompressed compress(DataBlock block) {
      DataBlock.FixedWidth fw = (DataBlock.FixedWidth) block;
      int n = (int) fw.numValues();
      List<MiniBlockChunk> chunks = new ArrayList<>();
      for (int s = 0; s < n; s += 4096) {
        int m = Math.min(4096, n - s);
        chunks.add(new MiniBlockChunk(new int[] {m}, s + m == n ? 0 : 12));
      }
      return new MiniBlockCompressed(List.of(Arrays.copyOf(fw.data(), n)), chunks, n, flat(8));
    }
  }

  /** The registry's decoders: this plugin with the built-in Flat and Variable, as a reader opens them. */
  static final Decoders DECODERS = io.lancecodec.runtime.CodecRegistry.discover().decoders();

  static final BlockCompressor FLAT_BLOCK =
      b -> {
        DataBlock.FixedWidth fw = (DataBlock.FixedWidth) b;
        return new Encoded<>(Arrays.copyOf(fw.data(), fw.usedBytes()), flat(fw.bitsPerValue()));
      };

  static BufferCodec codec(Scheme s) {
    return s.codec(OptionalInt.empty());
  }

  /**
   * The scan path: every chunk decoded with {@code decodeInto} from the one page buffer (chunk
   * slices side by side, as the layout stores them) into one exact-size output array.
   */
  static byte[] decodeAllInto(MiniBlockCompressed c, MiniBlockDecompressor dec, int bytesPerValue) {
    byte[] page = c.buffers().get(0);
    byte[] out = new byte[(int) (c.numValues() * bytesPerValue)];
    int pos = 0;
    long item = 0;
    for (int k = 0; k < c.chunks().size(); k++) {
      MiniBlockChunk ch = c.chunks().get(k);
      boolean last = k == c.chunks().size() - 1;
      long n = last ? c.numValues() - item : 1L << ch.logNumValues();
      ((FixedWidthMiniBlockDecompressor) dec).decodeInto(
          new MiniBlockBuffers(page, new int[] {pos}, new int[] {ch.bufferSizes()[0]}), (int) n, 0, (int) n, out, (int) (item * bytesPerValue));
      pos += ch.bufferSizes()[0];
      item += n;
    }
    return out;
  }

  /** Decodes every chunk of a mini-block result (as the layout would) and concatenates the values. */
  static byte[] decodeAll(MiniBlockCompressed c, MiniBlockDecompressor dec, int bytesPerValue) {
    int[] pos = new int[c.buffers().size()];
    long item = 0;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int k = 0; k < c.chunks().size(); k++) {
      MiniBlockChunk ch = c.chunks().get(k);
      boolean last = k == c.chunks().size() - 1;
      long n = last ? c.numValues() - item : 1L << ch.logNumValues();
      byte[][] bufs = new byte[pos.length][];
      for (int b = 0; b < pos.length; b++) {
        bufs[b] = Arrays.copyOfRange(c.buffers().get(b), pos[b], pos[b] + ch.bufferSizes()[b]);
        pos[b] += ch.bufferSizes()[b];
      }
      DataBlock.FixedWidth v = (DataBlock.FixedWidth) dec.decompress(MiniBlockBuffers.of(bufs), (int) n, null);
      out.write(v.data(), 0, (int) (n * bytesPerValue));
      item += n;
    }
    return out.toByteArray();
  }
}
