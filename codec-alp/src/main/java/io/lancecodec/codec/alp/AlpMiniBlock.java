package io.lancecodec.codec.alp;

import io.lancecodec.format.pb.v23.Alp;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The mini-block side of {@code Alp{values = Flat{T}}}, T = 32 or 64: a page's values in chunks of
 * at most 1024, four buffers each ({@code docs/wire/alp.md}), compressed by {@link AlpEncoder} and
 * read back by {@link AlpDecoder}.
 */
final class AlpMiniBlock {
  private AlpMiniBlock() {}

  /** The descriptor of a page of T-bit floats. */
  static CompressiveEncoding encoding(int bits) {
    return CompressiveEncoding.newBuilder()
        .setAlp(Alp.newBuilder().setValues(CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits))))
        .build();
  }

  /**
   * Encodes 32- or 64-bit blocks. Holds the encoder's scratch space (it grows to the largest page
   * seen); made per page by the plugin, not thread-safe.
   */
  static final class Compressor implements MiniBlockCompressor {
    private final AlpEncoder encoder = new AlpEncoder();
    private final int maxChunkBytes;

    Compressor(int maxChunkBytes) {
      this.maxChunkBytes = maxChunkBytes;
    }

    /**
     * Any block of 32- or 64-bit words, even one ALP does not shrink: the proposal made sure its
     * own page is smaller, and a compressor applied to another page must still write it.
     */
    @Override
    public MiniBlockCompressed compress(DataBlock block) {
      if (!(block instanceof DataBlock.FixedWidth fw) || (fw.bitsPerValue() != 32 && fw.bitsPerValue() != 64)) {
        throw LanceCodecException.internal("alp: compressor given " + describe(block) + ", expected 32- or 64-bit values");
      }
      if (fw.numValues() == 0) {
        byte[] none = new byte[0];
        return new MiniBlockCompressed(List.of(none, none, none, none), List.of(), 0, encoding(fw.bitsPerValue()));
      }
      MiniBlockCompressed out = encode(fw, false);
      if (out == null) {
        // 1024-value chunks take at most 18,452 bytes (all exceptions), far below any budget
        throw LanceCodecException.internal("alp: a chunk exceeds the " + maxChunkBytes + "-byte budget");
      }
      return out;
    }

    /** The block's chunks, or {@code null} when ALP would not make the page smaller than its raw values. */
    MiniBlockCompressed compressIfSmaller(DataBlock.FixedWidth fw) {
      return compressIfSmaller(fw, Long.MAX_VALUE);
    }

    /** As {@link #compressIfSmaller(DataBlock.FixedWidth)}, also null once the chunks pass {@code sizeToBeat} bytes. */
    MiniBlockCompressed compressIfSmaller(DataBlock.FixedWidth fw, long sizeToBeat) {
      return encode(fw, true, sizeToBeat);
    }

    private MiniBlockCompressed encode(DataBlock.FixedWidth fw, boolean mustShrink) {
      return encode(fw, mustShrink, Long.MAX_VALUE);
    }

    private MiniBlockCompressed encode(DataBlock.FixedWidth fw, boolean mustShrink, long sizeToBeat) {
      int n = LanceCodecException.checkedInt(fw.numValues(), "alp page values");
      byte[] data = fw.data();
      AlpPage page;
      if (fw.bitsPerValue() == 64) {
        double[] v = new double[n];
        // one bulk copy (the buffer's byte order matches the file's): a loop of single loads
        // took as long as ALP's sampling of the page
        ByteBuffer.wrap(data, 0, 8 * n).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(v);
        page = encoder.encodePage(v, 0, n, maxChunkBytes, mustShrink, sizeToBeat);
      } else {
        float[] v = new float[n];
        ByteBuffer.wrap(data, 0, 4 * n).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        page = encoder.encodePage(v, 0, n, maxChunkBytes, mustShrink, sizeToBeat);
      }
      if (page == null) {
        return null;
      }
      return new MiniBlockCompressed(List.of(page.buffer(0), page.buffer(1), page.buffer(2), page.buffer(3)),
          page.chunks(), n, encoding(fw.bitsPerValue()));
    }

    private static String describe(DataBlock block) {
      return block instanceof DataBlock.FixedWidth fw
          ? fw.bitsPerValue() + "-bit values"
          : block.getClass().getSimpleName() + " values";
    }
  }

  /**
   * Decodes chunks of T-bit floats. Stateless as the SPI asks: the decoder and its output scratch
   * are per thread, since a chunk decodes into doubles first and a scan calls this per chunk.
   */
  static final class Decompressor implements FixedWidthMiniBlockDecompressor {
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /**
     * Reads of at most 1/PICK_RATIO of a chunk pick their values one by one (a random access
     * into the packed block costs a few times a value of the fused whole-chunk loop).
     */
    private static final int PICK_RATIO = 16;

    private final int bits;

    Decompressor(int bits) {
      this.bits = bits;
    }

    /** One thread's decoder and a chunk's worth of decoded values. */
    private static final class Scratch {
      final AlpDecoder decoder = new AlpDecoder();
      final double[] f64 = new double[AlpFormat.MAX_CHUNK_VALUES];
      final float[] f32 = new float[AlpFormat.MAX_CHUNK_VALUES];
    }

    @Override
    public int bitsPerValue() {
      return bits;
    }

    /**
     * Per buffer, the larger of its ALP and ALP-RD forms: the payload packs at most T bits a value
     * in one 1024-slot block (a short raw chunk is smaller); the header is 4 + 2S bytes with Delta,
     * 8 for ALP-RD; buffer 2 holds u16 positions or u64 dictionary entries, buffer 3 exception
     * values or the ALP-RD index stream (one block of 16-bit words at most).
     */
    @Override
    public long maxBufferBytes(int buffer, int numValues) {
      long n = Math.max(0, Math.min(numValues, AlpFormat.MAX_CHUNK_VALUES));
      int s = bits / 8;
      switch (buffer) {
        case 0:
          return 128L * bits;
        case 1:
          return Math.max(AlpFormat.alpHeaderBytes(true, s), AlpFormat.RD_HEADER_BYTES);
        case 2:
          return bits == 64 ? n * AlpFormat.RD_DICT_ENTRY_BYTES : n * AlpFormat.EXCEPTION_POSITION_BYTES;
        case 3:
          return bits == 64 ? Math.max(n * s, 128L * AlpFormat.RD_INDEX_WORD_BITS) : n * s;
        default:
          return 0;
      }
    }

    @Override
    public void decodeInto(MiniBlockBuffers chunk, int numValues, int from, int to, byte[] dst, int dstOffset) {
      chunk.expect(4, "alp");
      int s = bits / 8;
      if (from < 0 || from > to || to > numValues || dstOffset < 0 || (long) (to - from) * s > dst.length - (long) dstOffset) {
        throw LanceCodecException.internal("alp: values [" + from + ", " + to + ") of " + numValues
            + " do not fit an output of " + dst.length + " bytes at " + dstOffset);
      }
      Scratch scratch = SCRATCH.get();
      // A few values of a FOR chunk (a take's rows) are read from their places in the packed
      // block; anything larger, and Delta or ALP-RD chunks, decode the chunk whole.
      boolean few = (long) (to - from) * PICK_RATIO <= numValues;
      if (bits == 64) {
        double[] v = scratch.f64;
        int first = from;
        if (few && scratch.decoder.decodeRange(chunk.bytes(), chunk.offsets(), chunk.sizes(), numValues, from, to, v, 0)) {
          first = 0;
        } else {
          scratch.decoder.decodeChunk(chunk.bytes(), chunk.offsets(), chunk.sizes(), numValues, v, 0);
        }
        for (int i = first, at = dstOffset; i < first + to - from; i++, at += 8) {
          LittleEndian.putLong(dst, at, Double.doubleToRawLongBits(v[i]));
        }
      } else {
        float[] v = scratch.f32;
        int first = from;
        if (few && scratch.decoder.decodeRange(chunk.bytes(), chunk.offsets(), chunk.sizes(), numValues, from, to, v, 0)) {
          first = 0;
        } else {
          scratch.decoder.decodeChunk(chunk.bytes(), chunk.offsets(), chunk.sizes(), numValues, v, 0);
        }
        for (int i = first, at = dstOffset; i < first + to - from; i++, at += 4) {
          LittleEndian.putInt(dst, at, Float.floatToRawIntBits(v[i]));
        }
      }
    }

    @Override
    public DataBlock decompress(MiniBlockBuffers chunk, int numValues, DecodeBuffers reuse) {
      if (numValues < 1 || numValues > AlpFormat.MAX_CHUNK_VALUES) {
        // before the output is sized by it
        throw LanceCodecException.corrupt("alp: chunk of " + numValues + " values, expected 1 to " + AlpFormat.MAX_CHUNK_VALUES);
      }
      int size = numValues * (bits / 8);
      byte[] out = reuse == null ? new byte[size] : reuse.data(size);
      decodeInto(chunk, numValues, 0, numValues, out, 0);
      return new DataBlock.FixedWidth(out, bits, numValues);
    }
  }
}
