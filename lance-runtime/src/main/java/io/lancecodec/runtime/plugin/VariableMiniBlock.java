package io.lancecodec.runtime.plugin;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.MiniBlocks;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Variable-width values in the 2.1/2.2 interleaved chunk form: each chunk is its offsets (rebased
 * so the first points just past the offset table) followed by its value bytes, padded with 0x48
 * to the offset width. Chunk sizes follow the reference's search, which keeps doubling the value
 * count while the chunk stays within 4 KiB and then takes the first count that does not.
 */
public final class VariableMiniBlock implements MiniBlockCompressor {
  private static final long AIM_CHUNK_BYTES = MiniBlocks.VARIABLE_TARGET_BYTES;
  private static final byte PAD = 0x48;

  @Override
  public MiniBlockCompressed compress(DataBlock block) {
    DataBlock.VariableWidth vw = (DataBlock.VariableWidth) block;
    int width = vw.bitsPerOffset() / 8;
    int numOffsets = (int) vw.numValues() + 1;
    List<MiniBlockChunk> chunks = new ArrayList<>();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int start = 0;
    if (vw.numValues() == 0) {
      return new MiniBlockCompressed(
          List.of(new byte[0]), chunks, 0, BuiltinCodecs.variable(vw.bitsPerOffset()));
    }
    while (true) {
      int end = nextEnd(vw, numOffsets, start, width);
      int n = end - start;
      int tableBytes = (n + 1) * width;
      long base = vw.offset(start);
      long dataBytes = vw.offset(end) - base;
      int size = LanceCodecException.checkedInt(tableBytes + dataBytes, "variable chunk size");
      int padded = (size + width - 1) / width * width;
      byte[] chunk = new byte[padded];
      for (int i = 0; i <= n; i++) {
        LittleEndian.putUnsigned(chunk, i * width, width, vw.offset(start + i) - base + tableBytes);
      }
      System.arraycopy(vw.data(), (int) base, chunk, tableBytes, (int) dataBytes);
      for (int i = size; i < padded; i++) {
        chunk[i] = PAD;
      }
      out.write(chunk, 0, padded);
      boolean last = end == numOffsets - 1;
      chunks.add(new MiniBlockChunk(new int[] {padded}, MiniBlocks.logNumValues(n, last)));
      if (last) {
        break;
      }
      start = end;
    }
    return new MiniBlockCompressed(
        List.of(out.toByteArray()), chunks, vw.numValues(), BuiltinCodecs.variable(vw.bitsPerOffset()));
  }

  /** The reference's chunk-end search (including its overshoot by one doubling). */
  private static int nextEnd(DataBlock.VariableWidth vw, int numOffsets, int last, int width) {
    int numValues = 1;
    int next = 2;
    while (true) {
      if (last + next >= numOffsets) {
        long size = vw.offset(numOffsets - 1) - vw.offset(last) + (long) (numOffsets - last) * width;
        return size <= AIM_CHUNK_BYTES ? numOffsets - 1 : last + numValues;
      }
      long size = vw.offset(last + next) - vw.offset(last) + (long) (next + 1) * width;
      if (size <= AIM_CHUNK_BYTES) {
        numValues = next;
        next *= 2;
      } else {
        return last + next;
      }
    }
  }

  /**
   * Reads a chunk's offsets, checking every one. With {@code reuse} the values stay where they
   * are: the block's offsets (in reused memory) point into the chunk's own bytes, valid as long as
   * the caller keeps the chunk, so FSST and the scan read the codes without a copy. Without, the
   * values are copied out and the offsets rebased to zero.
   */
  static final class Decompressor implements MiniBlockDecompressor {
    private final int bits;

    Decompressor(int bits) {
      this.bits = bits;
    }

    @Override
    public DataBlock decompress(MiniBlockBuffers chunk, int numValues, DecodeBuffers reuse) {
      chunk.expect(1, "variable");
      byte[] b = chunk.bytes();
      int base = chunk.offset(0);
      int size = chunk.size(0);
      int width = bits / 8;
      int n = numValues;
      if (!(n >= 0 && (long) (n + 1) * width <= size)) {
        throw LanceCodecException.corrupt("variable chunk: " + ((long) n + 1) + " offsets do not fit in " + size + " bytes");
      }
      long first = LittleEndian.getUnsigned(b, base, width);
      long lastOff = LittleEndian.getUnsigned(b, base + n * width, width);
      if (!(first >= (long) (n + 1) * width && first <= lastOff && lastOff <= size)) {
        throw LanceCodecException.corrupt("variable chunk: offsets [" + first + ", " + lastOff + "] outside chunk of " + size + " bytes");
      }
      long shift = reuse == null ? -first : base;
      byte[] offsets = reuse == null ? new byte[(n + 1) * width] : reuse.offsets((long) (n + 1) * width);
      long prev = first;
      for (int i = 0; i <= n; i++) {
        long o = LittleEndian.getUnsigned(b, base + i * width, width);
        if (o < prev || o > lastOff) {
          throw LanceCodecException.corrupt("variable chunk: offset " + i + " = " + o + " is not monotonic");
        }
        prev = o;
        LittleEndian.putUnsigned(offsets, i * width, width, o + shift);
      }
      byte[] data = reuse == null ? java.util.Arrays.copyOfRange(b, base + (int) first, base + (int) lastOff) : b;
      return new DataBlock.VariableWidth(offsets, bits, data, numValues);
    }
  }
}
