package io.lancecodec.runtime;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlockDecompressor;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Variable-width values in the 2.1/2.2 interleaved chunk form: each chunk is its offsets (rebased
 * so the first points just past the offset table) followed by its value bytes, padded with 0x48
 * to the offset width. Chunk sizes follow the reference's search, which keeps doubling the value
 * count while the chunk stays within 4 KiB and then takes the first count that does not.
 */
final class VariableMiniBlock implements MiniBlockCompressor {
  private static final long AIM_CHUNK_BYTES = 4 * 1024;
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
      chunks.add(new MiniBlockChunk(new int[] {padded}, last ? 0 : Integer.numberOfTrailingZeros(n)));
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

  /** Splits a chunk back into rebased offsets and value bytes, checking every offset. */
  static final class Decompressor implements MiniBlockDecompressor {
    private final int bits;

    Decompressor(int bits) {
      this.bits = bits;
    }

    @Override
    public DataBlock decompress(List<byte[]> buffers, long numValues) {
      if (buffers.size() != 1) {
        throw LanceCodecException.corrupt("variable chunk has " + buffers.size() + " buffers, expected 1");
      }
      byte[] b = buffers.get(0);
      int width = bits / 8;
      int n = LanceCodecException.checkedInt(numValues, "variable chunk value count");
      if (!((long) (n + 1) * width <= b.length)) {
        throw LanceCodecException.corrupt("variable chunk: " + (n + 1) + " offsets do not fit in " + b.length + " bytes");
      }
      long first = LittleEndian.getUnsigned(b, 0, width);
      long lastOff = LittleEndian.getUnsigned(b, n * width, width);
      if (!(first >= (long) (n + 1) * width && first <= lastOff && lastOff <= b.length)) {
        throw LanceCodecException.corrupt("variable chunk: offsets [" + first + ", " + lastOff + "] outside chunk of " + b.length + " bytes");
      }
      byte[] offsets = new byte[(n + 1) * width];
      long prev = first;
      for (int i = 0; i <= n; i++) {
        long o = LittleEndian.getUnsigned(b, i * width, width);
        if (o < prev || o > lastOff) {
          throw LanceCodecException.corrupt("variable chunk: offset " + i + " = " + o + " is not monotonic");
        }
        prev = o;
        LittleEndian.putUnsigned(offsets, i * width, width, o - first);
      }
      byte[] data = java.util.Arrays.copyOfRange(b, (int) first, (int) lastOff);
      return new DataBlock.VariableWidth(offsets, bits, data, numValues);
    }
  }
}
