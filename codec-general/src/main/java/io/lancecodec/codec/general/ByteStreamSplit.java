package io.lancecodec.codec.general;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.Flat;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlocks;
import java.util.ArrayList;
import java.util.List;

/**
 * Byte-stream-split for mini-block chunks: inside a chunk of {@code m} values of {@code w}
 * bytes, byte {@code j} of value {@code i} is stored at {@code j * m + i}. Chunks hold 1024
 * values (32-bit), 512 (64-bit) or 2048 (16-bit, read only in practice), so each is 4 KiB; the
 * last chunk holds the rest and records log2 0. It does not shrink data on its own and is only
 * written under a general compressor, which then sees long runs of similar bytes.
 */
final class ByteStreamSplit {
  private ByteStreamSplit() {}

  /** Chunks of 4 KiB, as the reference cuts them (1024 values of 32 bits, 512 of 64). */
  private static final int BYTES_PER_CHUNK = 4096;

  static boolean splittable(int bits) {
    return bits == 16 || bits == 32 || bits == 64;
  }

  static int chunkValues(int bits) {
    return BYTES_PER_CHUNK / (bits / 8);
  }

  static CompressiveEncoding encoding(int bits) {
    return CompressiveEncoding.newBuilder()
        .setByteStreamSplit(
            io.lancecodec.format.pb.v21.ByteStreamSplit.newBuilder()
                .setValues(CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits))))
        .build();
  }

  /**
   * Mean Shannon entropy, in bits, of each byte position over the first {@code sample} values:
   * low values mean some byte positions barely change, which is what splitting exploits.
   */
  static double meanBytePositionEntropy(DataBlock.FixedWidth fw, int sample) {
    int w = fw.bitsPerValue() / 8;
    int n = (int) Math.min(fw.numValues(), sample);
    if (n == 0 || w == 0) {
      return 0.0;
    }
    byte[] d = fw.data();
    double sum = 0;
    int[] counts = new int[256];
    for (int pos = 0; pos < w; pos++) {
      java.util.Arrays.fill(counts, 0);
      for (int i = 0; i < n; i++) {
        counts[d[i * w + pos] & 0xFF]++;
      }
      double h = 0;
      for (int c : counts) {
        if (c > 0) {
          double p = (double) c / n;
          h -= p * (Math.log(p) / Math.log(2));
        }
      }
      // The reference keeps each position's entropy as an integer number of millibits.
      sum += Math.floor(h * 1000.0) / 1000.0;
    }
    return sum / w;
  }

  /** The 2.3 descriptor: {@code ByteStreamSplit{values = Flat{T}}}, the same chunks. */
  static io.lancecodec.format.pb.v23.CompressiveEncoding encoding23(int bits) {
    return io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder()
        .setByteStreamSplit(io.lancecodec.format.pb.v23.ByteStreamSplit.newBuilder()
            .setValues(io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder()
                .setFlat(io.lancecodec.format.pb.v23.Flat.newBuilder().setBitsPerValue(bits))))
        .build();
  }

  static final class Compressor implements MiniBlockCompressor {
    private final boolean v23;
    /** Values in a chunk, at most (LANCE_MINIBLOCK_MAX_VALUES): below 4 KiB's worth, it cuts chunks shorter. */
    private final int maxValues;

    Compressor() {
      this(false, MiniBlocks.MAX_VALUES);
    }

    /** {@code maxValues} {@link Integer#MAX_VALUE}: the whole block in one chunk, whatever its size. */
    Compressor(boolean v23, int maxValues) {
      this.v23 = v23;
      this.maxValues = maxValues == Integer.MAX_VALUE ? maxValues : MiniBlocks.fullChunkValues(maxValues);
    }

    @Override
    public MiniBlockCompressed compress(DataBlock block) {
      DataBlock.FixedWidth fw = (DataBlock.FixedWidth) block;
      int bits = fw.bitsPerValue();
      int w = bits / 8;
      int total = (int) fw.numValues();
      int per = maxValues == Integer.MAX_VALUE ? Math.max(1, total) : Math.min(chunkValues(bits), maxValues);
      byte[] src = fw.data();
      byte[] out = new byte[total * w];
      List<MiniBlockChunk> chunks = new ArrayList<>();
      for (int start = 0; start < total; start += per) {
        int m = Math.min(per, total - start);
        int base = start * w;
        for (int i = 0; i < m; i++) {
          for (int j = 0; j < w; j++) {
            out[base + j * m + i] = src[base + i * w + j];
          }
        }
        boolean last = start + m == total;
        chunks.add(new MiniBlockChunk(new int[] {m * w}, MiniBlocks.logNumValues(m, last)));
      }
      return new MiniBlockCompressed(List.of(out), chunks, total, v23 ? encoding23(bits) : encoding(bits));
    }
  }

  static final class Decompressor implements FixedWidthMiniBlockDecompressor {
    private final int bits;

    Decompressor(int bits) {
      this.bits = bits;
    }

    @Override
    public int bitsPerValue() {
      return bits;
    }

    @Override
    public long maxBufferBytes(int buffer, int numValues) {
      return (long) numValues * (bits / 8);
    }

    @Override
    public void decodeInto(MiniBlockBuffers chunk, int numValues, int from, int to, byte[] dst, int dstOffset) {
      chunk.expect(1, "byte-stream-split");
      int w = bits / 8;
      int len = chunk.size(0);
      if (!(numValues >= 0 && (long) numValues * w == len)) {
        throw LanceCodecException.corrupt(
            "byte-stream-split: " + numValues + " values of " + bits + " bits need " + (long) numValues * w
                + " bytes, chunk has " + len);
      }
      if (dstOffset < 0 || (long) (to - from) * w > dst.length - (long) dstOffset) {
        throw LanceCodecException.internal("byte-stream-split: " + (to - from) + " values do not fit at " + dstOffset);
      }
      byte[] in = chunk.bytes();
      int base = chunk.offset(0);
      int m = numValues;
      for (int j = 0; j < w; j++) {
        int row = base + j * m;
        for (int i = from; i < to; i++) {
          dst[dstOffset + (i - from) * w + j] = in[row + i];
        }
      }
    }
  }
}
