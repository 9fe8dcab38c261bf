package io.lancecodec.codec.general;

import io.lancecodec.format.pb.v21.BufferCompression;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.General;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlockDecompressor;
import java.io.ByteArrayOutputStream;
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

  /**
   * Remembers the last block it compressed so the proposal's exact size costs no second pass:
   * the runtime asks for a proposal and then compresses the same block. Created per page.
   */
  static final class Compressor implements MiniBlockCompressor {
    private final MiniBlockCompressor inner;
    private final BufferCodec codec;
    private final BufferCompression compression;
    private final int maxChunkBytes;
    private DataBlock lastBlock;
    private MiniBlockCompressed lastResult;

    Compressor(MiniBlockCompressor inner, BufferCodec codec, BufferCompression compression, int maxChunkBytes) {
      this.inner = inner;
      this.codec = codec;
      this.compression = compression;
      this.maxChunkBytes = maxChunkBytes;
    }

    /** The wrapped result, or null when the reference's rules leave the page unwrapped. */
    synchronized MiniBlockCompressed tryWrap(DataBlock block) {
      if (block == lastBlock) {
        return lastResult;
      }
      MiniBlockCompressed in = inner.compress(block);
      MiniBlockCompressed out = wrapOrNull(in);
      lastBlock = block;
      lastResult = out == null ? in : out;
      return lastResult;
    }

    private MiniBlockCompressed wrapOrNull(MiniBlockCompressed in) {
      if (in.buffers().isEmpty() || in.buffers().get(0).length < GeneralFormat.MIN_MINI_BLOCK_BYTES) {
        return null;
      }
      byte[] first = in.buffers().get(0);
      ByteArrayOutputStream frames = new ByteArrayOutputStream();
      List<MiniBlockChunk> chunks = new ArrayList<>(in.chunks().size());
      int pos = 0;
      for (MiniBlockChunk c : in.chunks()) {
        int size = c.bufferSizes()[0];
        byte[] frame = codec.compress(first, pos, size);
        pos += size;
        frames.write(frame, 0, frame.length);
        int[] sizes = c.bufferSizes().clone();
        sizes[0] = frame.length;
        if (chunkBytes(sizes) > maxChunkBytes) {
          return null;
        }
        chunks.add(new MiniBlockChunk(sizes, c.logNumValues()));
      }
      if (frames.size() >= pos) {
        return null;
      }
      List<byte[]> buffers = new ArrayList<>(in.buffers());
      buffers.set(0, frames.toByteArray());
      return new MiniBlockCompressed(
          buffers, chunks, in.numValues(), wrap(compression, (CompressiveEncoding) in.encoding()));
    }

    /** Serialized chunk size: a generous header (levels, def size, one u32 per buffer) and padding. */
    private static long chunkBytes(int[] sizes) {
      long total = 8 + 4L * sizes.length + 64;
      for (int s : sizes) {
        total += (s + 7) & ~7L;
      }
      return total;
    }

    @Override
    public MiniBlockCompressed compress(DataBlock block) {
      return tryWrap(block);
    }
  }

  static final class Decompressor implements MiniBlockDecompressor {
    private final BufferCodec codec;
    private final MiniBlockDecompressor inner;
    private final CompressiveEncoding innerEncoding;

    Decompressor(BufferCodec codec, MiniBlockDecompressor inner, CompressiveEncoding innerEncoding) {
      this.codec = codec;
      this.inner = inner;
      this.innerEncoding = innerEncoding;
    }

    /**
     * Over Flat values the frame holds exactly the output bytes, so a scan can have it
     * decompressed straight into its array: no per-chunk array and no copy.
     */
    @Override
    public int directBits() {
      return innerEncoding.hasFlat() ? inner.directBits() : 0;
    }

    @Override
    public void decodeInto(byte[] chunk, int[] offsets, int[] sizes, int numValues, byte[] dst, int dstOffset) {
      if (offsets.length != 1 || sizes.length != 1) {
        throw io.lancecodec.spi.LanceCodecException.corrupt("general: chunk has " + offsets.length + " buffers, expected 1");
      }
      int off = offsets[0];
      int len = sizes[0];
      if (off < 0 || len < 0 || len > chunk.length - off) {
        throw io.lancecodec.spi.LanceCodecException.corrupt(
            "general: frame [" + off + ", +" + len + ") outside its " + chunk.length + "-byte buffer");
      }
      long budget = GeneralFormat.miniBlockBudget(innerEncoding, numValues);
      long need = (long) numValues * (directBits() / 8);
      long declared = len == 0 ? 0 : codec.declaredLength(chunk, off, len, budget);
      if (declared == need && need <= dst.length - (long) dstOffset && dstOffset >= 0) {
        if (need > 0) {
          codec.decompressInto(chunk, off, len, dst, dstOffset, (int) need);
        }
        return;
      }
      // Legacy bare zstd or a frame with slack: decode on its own, the inner decoder checks the size.
      byte[] plain = codec.decompress(chunk, off, len, budget);
      inner.decodeInto(plain, new int[] {0}, new int[] {plain.length}, numValues, dst, dstOffset);
    }

    @Override
    public DataBlock decompress(List<byte[]> buffers, long numValues) {
      if (buffers.isEmpty()) {
        throw io.lancecodec.spi.LanceCodecException.corrupt("general: chunk has no buffers");
      }
      long budget = GeneralFormat.miniBlockBudget(innerEncoding, numValues);
      byte[] frame = buffers.get(0);
      byte[] plain = codec.decompress(frame, 0, frame.length, budget);
      List<byte[]> next = new ArrayList<>(buffers);
      next.set(0, plain);
      return inner.decompress(next, numValues);
    }
  }
}
