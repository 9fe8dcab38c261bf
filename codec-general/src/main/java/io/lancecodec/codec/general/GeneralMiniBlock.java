package io.lancecodec.codec.general;

import io.lancecodec.format.pb.v21.BufferCompression;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.General;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.MiniBlocks;
import java.util.ArrayList;
import java.util.List;

/**
 * General compression of mini-block chunks, as the reference frames it: the inner compressor
 * runs first, then each chunk's slice of the inner buffer 0 becomes one frame on its own (other
 * buffers untouched) and {@code buffer_sizes[0]} records the frame's size. Every chunk of a
 * wrapped page is compressed: the reader always decodes buffer 0, there is no per-chunk flag.
 * The page stays unwrapped when buffer 0 is under 4 KiB, when the frames are not smaller than
 * the input, or when a compressed chunk would no longer fit the layout's chunk budget.
 */
final class GeneralMiniBlock {
  private GeneralMiniBlock() {}

  static CompressiveEncoding wrap(BufferCompression compression, CompressiveEncoding inner) {
    return CompressiveEncoding.newBuilder()
        .setGeneral(General.newBuilder().setCompression(compression).setValues(inner))
        .build();
  }

  /** 2.3's General around a mini-block encoding ({@code values} is field 2 there). */
  static io.lancecodec.format.pb.v23.CompressiveEncoding wrap23(
      io.lancecodec.format.pb.v23.BufferCompression compression, io.lancecodec.format.pb.v23.CompressiveEncoding inner) {
    return io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder()
        .setGeneral(io.lancecodec.format.pb.v23.General.newBuilder().setCompression(compression).setValues(inner))
        .build();
  }

  /**
   * Wraps what {@code inner} makes of a page, when the reference's rules let it. In 2.2 the frame
   * is each chunk's buffer 0; in 2.3 every non-empty buffer of each chunk is a frame of its own
   * (the same bytes when the inner encoding has one buffer), because 2.3 inner encodings keep
   * their bulk in later buffers too: the value bytes of generic-offset strings follow their
   * offsets, item validity precedes fixed-size-list values.
   */
  static final class Compressor implements MiniBlockCompressor {
    private final io.lancecodec.spi.Compressor<MiniBlockCompressed> inner;
    private final BufferCodec codec;
    private final BufferCompression compression;
    /** 2.3: wraps the inner node (General for lz4/zstd, the snappy extension); null in 2.1/2.2. */
    private final java.util.function.UnaryOperator<io.lancecodec.format.pb.v23.CompressiveEncoding> node23;
    private final int maxChunkBytes;
    /**
     * Frames every page it is given, small or not shrinking: the one chunk of an enclosing
     * encoding (a fixed-size list's rows), whose chunks must all carry the same descriptor and
     * whose owner weighs the page as a whole.
     */
    private boolean always;

    Compressor(io.lancecodec.spi.Compressor<MiniBlockCompressed> inner, BufferCodec codec, BufferCompression compression, int maxChunkBytes) {
      this.inner = inner;
      this.codec = codec;
      this.compression = compression;
      this.node23 = null;
      this.maxChunkBytes = maxChunkBytes;
    }

    /** The 2.3 wrapper: every buffer framed, the inner node wrapped by {@code node23}. */
    Compressor(io.lancecodec.spi.Compressor<MiniBlockCompressed> inner, BufferCodec codec,
        java.util.function.UnaryOperator<io.lancecodec.format.pb.v23.CompressiveEncoding> node23, int maxChunkBytes) {
      this.inner = inner;
      this.codec = codec;
      this.compression = null;
      this.node23 = node23;
      this.maxChunkBytes = maxChunkBytes;
    }

    /** This compressor framing every page ({@link #always}); 2.3 only. */
    Compressor always() {
      always = true;
      return this;
    }

    @Override
    public MiniBlockCompressed compress(DataBlock block) {
      MiniBlockCompressed in = inner.compress(block);
      MiniBlockCompressed out = wrapOrNull(in);
      return out == null ? in : out;
    }

    /** {@code in} with each chunk's buffer 0 as a frame, or null when the reference's rules leave the page unwrapped. */
    MiniBlockCompressed wrapOrNull(MiniBlockCompressed in) {
      if (node23 != null) {
        return wrapAllOrNull(in);
      }
      if (in.buffers().isEmpty() || in.buffers().get(0).length < GeneralFormat.MIN_MINI_BLOCK_BYTES) {
        return null;
      }
      byte[] first = in.buffers().get(0);
      byte[] frames = new byte[codec.maxFrameBytes(first.length) + 64 * in.chunks().size()];
      List<MiniBlockChunk> chunks = new ArrayList<>(in.chunks().size());
      int pos = 0;
      int framesSize = 0;
      for (MiniBlockChunk c : in.chunks()) {
        int size = c.bufferSizes()[0];
        int room = codec.maxFrameBytes(size);
        if (room > frames.length - framesSize) {
          frames = java.util.Arrays.copyOf(frames, Math.max(2 * frames.length, framesSize + room));
        }
        int frame = codec.compressInto(first, pos, size, frames, framesSize);
        pos += size;
        framesSize += frame;
        int[] sizes = c.bufferSizes().clone();
        sizes[0] = frame;
        if (chunkBytes(sizes) > maxChunkBytes) {
          return null;
        }
        chunks.add(new MiniBlockChunk(sizes, c.logNumValues()));
      }
      if (framesSize >= pos) {
        return null;
      }
      List<byte[]> buffers = new ArrayList<>(in.buffers());
      buffers.set(0, java.util.Arrays.copyOf(frames, framesSize));
      return new MiniBlockCompressed(
          buffers, chunks, in.numValues(), wrap(compression, (CompressiveEncoding) in.encoding()));
    }

    /**
     * 2.3: each chunk's slice of every buffer as its own frame, an empty slice left empty (an
     * empty frame decodes to nothing, so it needs no prefix). The same rules as 2.2, over all the
     * buffers: unwrapped under 4 KiB, or when the frames do not shrink the page, or when a chunk
     * would outgrow the layout's chunk budget.
     */
    private MiniBlockCompressed wrapAllOrNull(MiniBlockCompressed in) {
      int nb = in.buffers().size();
      long total = 0;
      for (byte[] b : in.buffers()) {
        total += b.length;
      }
      if (nb == 0 || total < GeneralFormat.MIN_MINI_BLOCK_BYTES && !always) {
        return null;
      }
      byte[][] frames = new byte[nb][];
      int[] framesSize = new int[nb];
      int[] pos = new int[nb];
      for (int k = 0; k < nb; k++) {
        frames[k] = new byte[codec.maxFrameBytes(in.buffers().get(k).length) + 64 * in.chunks().size()];
      }
      List<MiniBlockChunk> chunks = new ArrayList<>(in.chunks().size());
      long framed = 0;
      for (MiniBlockChunk c : in.chunks()) {
        int[] sizes = c.bufferSizes().clone();
        for (int k = 0; k < nb; k++) {
          int size = sizes[k];
          if (size == 0) {
            continue;
          }
          int room = codec.maxFrameBytes(size);
          if (room > frames[k].length - framesSize[k]) {
            frames[k] = java.util.Arrays.copyOf(frames[k], Math.max(2 * frames[k].length, framesSize[k] + room));
          }
          int frame = codec.compressInto(in.buffers().get(k), pos[k], size, frames[k], framesSize[k]);
          pos[k] += size;
          framesSize[k] += frame;
          sizes[k] = frame;
          framed += frame;
        }
        if (chunkBytes(sizes) > maxChunkBytes && !always) {
          return null;
        }
        chunks.add(new MiniBlockChunk(sizes, c.logNumValues()));
      }
      if (framed >= total && !always) {
        return null;
      }
      List<byte[]> buffers = new ArrayList<>(nb);
      for (int k = 0; k < nb; k++) {
        buffers.add(java.util.Arrays.copyOf(frames[k], framesSize[k]));
      }
      return new MiniBlockCompressed(
          buffers, chunks, in.numValues(), node23.apply((io.lancecodec.format.pb.v23.CompressiveEncoding) in.encoding()));
    }

    /** Serialized chunk size: a generous header (levels, def size, one u32 per buffer) and padding. */
    private static long chunkBytes(int[] sizes) {
      long total = 8 + 4L * sizes.length + 64;
      for (int s : sizes) {
        total += MiniBlocks.pad8(s);
      }
      return total;
    }
  }

  /** The decompressor for frames around {@code inner}: fixed-width when the inner one is. */
  static MiniBlockDecompressor decompressor(BufferCodec codec, MiniBlockDecompressor inner) {
    return decompressor(codec, inner, false);
  }

  /** {@code allBuffers}: 2.3, where every buffer of a chunk is a frame (an empty one is empty). */
  static MiniBlockDecompressor decompressor(BufferCodec codec, MiniBlockDecompressor inner, boolean allBuffers) {
    return inner instanceof FixedWidthMiniBlockDecompressor fixed ? new FixedWidth(codec, fixed, allBuffers)
        : new Decompressor(codec, inner, allBuffers);
  }

  /** The budget of a chunk's decoded buffer 0, from what the inner decoder can take. */
  static long budget(MiniBlockDecompressor inner, int numValues) {
    return budget(inner, 0, numValues);
  }

  /** The budget of a chunk's decoded buffer {@code buffer}. */
  static long budget(MiniBlockDecompressor inner, int buffer, int numValues) {
    if (!(numValues >= 0 && numValues <= MiniBlocks.MAX_VALUES_READ)) {
      throw LanceCodecException.corrupt("general: chunk of " + numValues + " values exceeds " + MiniBlocks.MAX_VALUES_READ);
    }
    return GeneralFormat.budget(inner.maxBufferBytes(buffer, numValues), GeneralFormat.MAX_MINI_BLOCK_OUTPUT);
  }

  /** Decompresses buffer 0 (2.3: every buffer) into new arrays and hands the chunk to the inner decoder. */
  static class Decompressor implements MiniBlockDecompressor {
    final BufferCodec codec;
    private final MiniBlockDecompressor inner;
    final boolean allBuffers;

    Decompressor(BufferCodec codec, MiniBlockDecompressor inner, boolean allBuffers) {
      this.codec = codec;
      this.inner = inner;
      this.allBuffers = allBuffers;
    }

    @Override
    public DataBlock decompress(MiniBlockBuffers chunk, int numValues, DecodeBuffers reuse) {
      if (chunk.count() == 0) {
        throw LanceCodecException.corrupt("general: chunk has no buffers");
      }
      if (!allBuffers) {
        byte[] plain = codec.decompress(chunk.bytes(), chunk.offset(0), chunk.size(0), budget(inner, numValues));
        return inner.decompress(chunk.with(0, plain), numValues, reuse);
      }
      return inner.decompress(frames(chunk, numValues), numValues, reuse);
    }

    /** Every buffer of the chunk decompressed, each within what the inner decoder can take there. */
    MiniBlockBuffers frames(MiniBlockBuffers chunk, int numValues) {
      byte[][] plain = new byte[chunk.count()][];
      for (int k = 0; k < plain.length; k++) {
        plain[k] = codec.decompress(chunk.bytes(), chunk.offset(k), chunk.size(k), budget(inner, k, numValues));
      }
      return MiniBlockBuffers.of(plain);
    }
  }

  /**
   * Frames around fixed-width values. Over values stored as they are (Flat) a whole chunk's frame
   * holds exactly the output bytes, so a scan has it decompressed straight into its array: no
   * per-chunk array and no copy.
   */
  static final class FixedWidth extends Decompressor implements FixedWidthMiniBlockDecompressor {
    private final FixedWidthMiniBlockDecompressor inner;

    FixedWidth(BufferCodec codec, FixedWidthMiniBlockDecompressor inner, boolean allBuffers) {
      super(codec, inner, allBuffers);
      this.inner = inner;
    }

    @Override
    public int bitsPerValue() {
      return inner.bitsPerValue();
    }

    @Override
    public DataBlock decompress(MiniBlockBuffers chunk, int numValues, DecodeBuffers reuse) {
      return super.decompress(chunk, numValues, reuse);
    }

    @Override
    public void decodeInto(MiniBlockBuffers chunk, int numValues, int from, int to, byte[] dst, int dstOffset) {
      if (allBuffers && chunk.count() != 1) {
        // 2.3 around a fixed-width encoding of several buffers (ALP's four): each is a frame
        inner.decodeInto(frames(chunk, numValues), numValues, from, to, dst, dstOffset);
        return;
      }
      chunk.expect(1, "general");
      int off = chunk.offset(0);
      int len = chunk.size(0);
      long budget = budget(inner, numValues);
      if (inner.storesValuesAsIs() && from == 0 && to == numValues) {
        long need = (long) numValues * (bitsPerValue() / 8);
        long declared = len == 0 ? 0 : codec.declaredLength(chunk.bytes(), off, len, budget);
        if (declared == need && dstOffset >= 0 && need <= dst.length - (long) dstOffset) {
          if (need > 0) {
            codec.decompressInto(chunk.bytes(), off, len, dst, dstOffset, (int) need);
          }
          return;
        }
      }
      // a part of a chunk, values under another codec, legacy bare zstd or a frame with slack:
      // decode the frame on its own and let the inner decoder check the size
      byte[] plain = codec.decompress(chunk.bytes(), off, len, budget);
      inner.decodeInto(MiniBlockBuffers.of(plain), numValues, from, to, dst, dstOffset);
    }
  }
}
