package io.lancecodec.runtime.plugin;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FileVersion;
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
 *
 * <p>In 2.3 the same chunks may instead carry their offsets as a generic unsigned block (the
 * specification's "Variable"): per chunk {@code num_values + 1} offsets from zero to the chunk's
 * value bytes, all chunks of the page under one offset codec, stored as an offset payload buffer
 * before the value buffer (none for a metadata-only codec such as Range). The writer builds both
 * forms over the same chunk boundaries and keeps the generic one only when the page's complete
 * serialized size (chunk headers, metadata words, padded buffers and the descriptor) is strictly
 * smaller; a tie keeps the legacy bytes.
 */
public final class VariableMiniBlock implements MiniBlockCompressor {
  private static final long AIM_CHUNK_BYTES = MiniBlocks.VARIABLE_TARGET_BYTES;
  private static final byte PAD = 0x48;
  private static final byte[] EMPTY = new byte[0];

  /** 2.3 only: the runtime's family encoder for generic offsets, or null (legacy form only). */
  private final GenericBlocks.FamilyEncoder families;
  private final boolean v23;
  /** Values in a chunk, at most: a power of two (LANCE_MINIBLOCK_MAX_VALUES rounded down). */
  private final int maxValues;

  /** The 2.1/2.2 compressor: legacy chunks and the 2.1 descriptor. */
  public VariableMiniBlock() {
    this(MiniBlocks.MAX_VALUES);
  }

  /** The 2.1/2.2 compressor with chunks of at most {@code maxValues} values. */
  public VariableMiniBlock(int maxValues) {
    this.families = null;
    this.v23 = false;
    this.maxValues = MiniBlocks.fullChunkValues(maxValues);
  }

  /** The 2.3 compressor: legacy or generic chunks, whichever serializes smaller ({@code families} null: legacy). */
  VariableMiniBlock(GenericBlocks.FamilyEncoder families, int maxValues) {
    this.families = families;
    this.v23 = true;
    this.maxValues = MiniBlocks.fullChunkValues(maxValues);
  }

  @Override
  public MiniBlockCompressed compress(DataBlock block) {
    DataBlock.VariableWidth vw = (DataBlock.VariableWidth) block;
    if (!v23) {
      return legacy(vw, BuiltinCodecs.variable(vw.bitsPerOffset()));
    }
    MiniBlockCompressed legacy = legacy(vw, Builtin23.variable(Builtin23.flat(vw.bitsPerOffset())));
    if (families == null || vw.numValues() == 0) {
      return legacy;
    }
    MiniBlockCompressed generic = generic(vw, families, maxValues);
    return generic != null && preferGeneric(serializedBytes(generic), serializedBytes(legacy)) ? generic : legacy;
  }

  /** The spec's rule: the generic form only when strictly smaller; a tie keeps the legacy bytes. */
  static boolean preferGeneric(long genericBytes, long legacyBytes) {
    return genericBytes < legacyBytes;
  }

  /** What a 2.3 page spends on these chunks: headers, metadata words, padded buffers, and the descriptor. */
  static long serializedBytes(MiniBlockCompressed c) {
    return MiniBlocks.storedBytes(c, FileVersion.V2_3) + c.encoding().getSerializedSize();
  }

  MiniBlockCompressed legacy(DataBlock.VariableWidth vw, Message encoding) {
    int width = vw.bitsPerOffset() / 8;
    int numOffsets = (int) vw.numValues() + 1;
    List<MiniBlockChunk> chunks = new ArrayList<>();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int start = 0;
    if (vw.numValues() == 0) {
      return new MiniBlockCompressed(List.of(new byte[0]), chunks, 0, encoding);
    }
    while (true) {
      int end = nextEnd(vw, numOffsets, start, width, maxValues);
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
    return new MiniBlockCompressed(List.of(out.toByteArray()), chunks, vw.numValues(), encoding);
  }

  /**
   * The generic form over the legacy chunk boundaries, its one offset codec chosen by the plugins'
   * offers measured on all chunks' offsets; null when no codec other than Flat (the legacy signal)
   * is offered.
   */
  static MiniBlockCompressed generic(DataBlock.VariableWidth vw, GenericBlocks.FamilyEncoder families, int maxValues) {
    int bits = vw.bitsPerOffset();
    int width = bits / 8;
    int numOffsets = (int) vw.numValues() + 1;
    List<int[]> bounds = new ArrayList<>();
    List<DataBlock.FixedWidth> members = new ArrayList<>();
    for (int start = 0; ; ) {
      int end = nextEnd(vw, numOffsets, start, width, maxValues);
      int n = end - start;
      long base = vw.offset(start);
      byte[] offsets = new byte[(n + 1) * width];
      for (int i = 0; i <= n; i++) {
        LittleEndian.putUnsigned(offsets, i * width, width, vw.offset(start + i) - base);
      }
      members.add(new DataBlock.FixedWidth(offsets, bits, n + 1L));
      bounds.add(new int[] {start, end});
      if (end == numOffsets - 1) {
        break;
      }
      start = end;
    }
    List<Encoded<byte[]>> encoded = families.encodeFamily(members, e -> !e.hasFlat(), r -> serializedBytes(vw, bounds, r));
    return encoded == null ? null : assemble(vw, bounds, encoded);
  }

  /** {@link #serializedBytes(MiniBlockCompressed)} of what {@link #assemble} would build, without building it. */
  private static long serializedBytes(DataBlock.VariableWidth vw, List<int[]> bounds, List<Encoded<byte[]>> offsets) {
    boolean payload = offsets.get(0).data().length > 0;
    long perChunk = MiniBlocks.headerBytes(payload ? 2 : 1, FileVersion.V2_3) + MiniBlocks.metadataWordBytes(FileVersion.V2_3);
    long total = Builtin23.variable((CompressiveEncoding) offsets.get(0).encoding()).getSerializedSize();
    for (int k = 0; k < bounds.size(); k++) {
      long dataBytes = vw.offset(bounds.get(k)[1]) - vw.offset(bounds.get(k)[0]);
      total += perChunk + MiniBlocks.pad8(dataBytes) + (payload ? MiniBlocks.pad8((long) offsets.get(k).data().length) : 0);
    }
    return total;
  }

  /** Chunks of offset payloads (when the codec has them) and value bytes, under one Variable descriptor. */
  private static MiniBlockCompressed assemble(DataBlock.VariableWidth vw, List<int[]> bounds, List<Encoded<byte[]>> offsets) {
    boolean payload = offsets.get(0).data().length > 0;
    ByteArrayOutputStream payloads = new ByteArrayOutputStream();
    ByteArrayOutputStream values = new ByteArrayOutputStream();
    List<MiniBlockChunk> chunks = new ArrayList<>(bounds.size());
    for (int k = 0; k < bounds.size(); k++) {
      int start = bounds.get(k)[0];
      int end = bounds.get(k)[1];
      int base = (int) vw.offset(start);
      int dataBytes = (int) (vw.offset(end) - base);
      values.write(vw.data(), base, dataBytes);
      byte[] p = offsets.get(k).data();
      payloads.write(p, 0, p.length);
      int log = MiniBlocks.logNumValues(end - start, k == bounds.size() - 1);
      chunks.add(new MiniBlockChunk(payload ? new int[] {p.length, dataBytes} : new int[] {dataBytes}, log));
    }
    List<byte[]> buffers = payload ? List.of(payloads.toByteArray(), values.toByteArray()) : List.of(values.toByteArray());
    return new MiniBlockCompressed(
        buffers, chunks, vw.numValues(), Builtin23.variable((CompressiveEncoding) offsets.get(0).encoding()));
  }

  /**
   * The reference's chunk-end search (including its overshoot by one doubling), stopped at
   * {@code maxValues} (a power of two): with the default 4096 the byte aim always stops it first.
   */
  private static int nextEnd(DataBlock.VariableWidth vw, int numOffsets, int last, int width, int maxValues) {
    int numValues = 1;
    int next = 2;
    while (true) {
      if (last + next >= numOffsets) {
        long size = vw.offset(numOffsets - 1) - vw.offset(last) + (long) (numOffsets - last) * width;
        return size <= AIM_CHUNK_BYTES ? numOffsets - 1 : last + numValues;
      }
      long size = vw.offset(last + next) - vw.offset(last) + (long) (next + 1) * width;
      if (size <= AIM_CHUNK_BYTES && next < maxValues) {
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
    private final boolean exact;

    Decompressor(int bits) {
      this(bits, false);
    }

    /**
     * {@code exact}: 2.3's rule, the chunk ends with its last value padded to the offset width
     * (2.1/2.2 readers accept any bytes after it).
     */
    Decompressor(int bits, boolean exact) {
      this.bits = bits;
      this.exact = exact;
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
      if (exact && (first != (long) (n + 1) * width || (lastOff + width - 1) / width * width != size)) {
        throw LanceCodecException.corrupt("variable chunk: values at [" + first + ", " + lastOff + ") in a chunk of " + size
            + " bytes (" + (n + 1) + " offsets, then the values padded to " + width + " bytes)");
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

  /**
   * Reads a chunk of the 2.3 generic form: the offset payload buffer (when the codec has one),
   * then the value buffer. The offsets must start at zero, never decrease, and end at the value
   * buffer's size. With {@code reuse} the values stay in the chunk's bytes and the offsets are
   * shifted onto them, as {@link Decompressor} does.
   */
  static final class GenericDecompressor implements MiniBlockDecompressor {
    private final BlockDecompressor offsets;
    private final int bits;

    /** {@code offsets} checked by {@link GenericBlocks#open}, its width the offsets'. */
    GenericDecompressor(BlockDecompressor offsets) {
      this.offsets = offsets;
      this.bits = offsets.bitsPerValue();
    }

    @Override
    public DataBlock decompress(MiniBlockBuffers chunk, int numValues, DecodeBuffers reuse) {
      boolean payload = offsets.consumesPayload();
      chunk.expect(payload ? 2 : 1, "variable (generic offsets)");
      if (numValues < 0) {
        throw LanceCodecException.corrupt("variable chunk: " + numValues + " values");
      }
      int vb = payload ? 1 : 0;
      DataBlock.FixedWidth decoded = (DataBlock.FixedWidth) offsets.decompress(payload ? chunk.copy(0) : EMPTY, numValues + 1L);
      byte[] o = decoded.data();
      int width = bits / 8;
      int base = chunk.offset(vb);
      int size = chunk.size(vb);
      byte[] out = reuse == null ? o : reuse.offsets((long) (numValues + 1) * width);
      long prev = 0;
      for (int i = 0; i <= numValues; i++) {
        long v = LittleEndian.getUnsigned(o, i * width, width);
        if (i == 0 ? v != 0 : Long.compareUnsigned(v, prev) < 0 || Long.compareUnsigned(v, size) > 0) {
          throw LanceCodecException.corrupt("variable chunk: generic offset " + i + " = " + Long.toUnsignedString(v)
              + (i == 0 ? " (the first must be 0)" : " is decreasing or past the " + size + " value bytes"));
        }
        prev = v;
        if (reuse != null) {
          LittleEndian.putUnsigned(out, i * width, width, v + base);
        }
      }
      if (prev != size) {
        throw LanceCodecException.corrupt("variable chunk: the offsets end at " + prev + ", the value buffer has " + size + " bytes");
      }
      byte[] data = reuse == null ? java.util.Arrays.copyOfRange(chunk.bytes(), base, base + size) : chunk.bytes();
      return new DataBlock.VariableWidth(out, bits, data, numValues);
    }
  }
}
