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

  /** Wraps what {@code inner} makes of a page, when the reference's rules let it. */
  static final class Compressor implements MiniBlockCompressor {
    private final io.lancecodec.spi.Compressor<MiniBlockCompressed> inner;
    private final BufferCodec codec;
    private final BufferCompression compression;
    private final int maxChunkBytes;

    Compressor(io.lancecodec.spi.Compressor<MiniBlockCompressed> inner, BufferCodec codec, BufferCompression compression, int maxChunkBytes) {
      this.inner = inner;
      this.codec = codec;
      this.compression = compression;
      this.maxChunkBytes = maxChunkBytes;
    }

    @Override
    public MiniBlockCompressed compress(DataBlock block) {
      MiniBlockCompressed in = inner.compress(block);
      MiniBlockCompressed out = wrapOrNull(in);
      return out == null ? in : out;
    }

    /** {@code in} with each chunk's buffer 0 as a frame, or null when the reference's rules leave the page unwrapped. */
    MiniBlockCompressed wrapOrNull(MiniBlockCompressed in) {
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
    return inner instanceof FixedWidthMiniBlockDecompressor fixed ? new FixedWidth(codec, fixed) : new Decompressor(codec, inner);
  }

  /** The budget of a chunk's decoded buffer 0, from what the inner decoder can take. */
  static long budget(MiniBlockDecompressor inner, int numValues) {
    if (!(numValues >= 0 && numValues <= MiniBlocks.MAX_VALUES_READ)) {
      throw LanceCodecException.corrupt("general: chunk of " + numValues + " values exceeds " + MiniBlocks.MAX_VALUES_READ);
    }
    return GeneralFormat.budget(inner.maxBufferBytes(0, numValues), GeneralFormat.MAX_MINI_BLOCK_OUTPUT);
  }

  /** Decompresses buffer 0 into a new array and hands the chunk to the inner decoder. */
  static class Decompressor implements MiniBlockDecompressor {
    final BufferCodec codec;
    private final MiniBlockDecompressor inner;

    Decompressor(BufferCodec codec, MiniBlockDecompressor inner) {
      this.codec = codec;
      this.inner = inner;
    }

    @Override
    public DataBlock decompress(MiniBlockBuffers chunk, int numValues, DecodeBuffers reuse) {
      if (chunk.count() == 0) {
        throw LanceCodecException.corrupt("general: chunk has no buffers");
      }
      byte[] plain = codec.decompress(chunk.bytes(), chunk.offset(0), chunk.size(0), budget(inner, numValues));
      return inner.decompress(chunk.with(0, plain), numValues, reuse);
    }
  }

  /**
   * Frames around fixed-width values. Over values stored as they are (Flat) a whole chunk's frame
   * holds exactly the output bytes, so a scan has it decompressed straight into its array: no
   * per-chunk array and no copy.
   */
  static final class FixedWidth extends Decompressor implements FixedWidthMiniBlockDecompressor {
    private final FixedWidthMiniBlockDecompressor inner;

    FixedWidth(BufferCodec codec, FixedWidthMiniBlockDecompressor inner) {
      super(codec, inner);
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
