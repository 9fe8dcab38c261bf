package io.lancecodec.layout.physical;

import com.google.protobuf.Message;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.PageArrays;
import io.lancecodec.spi.Parallelism;
import io.lancecodec.spi.layout.LayoutContext;
import io.lancecodec.spi.layout.PageInput;
import java.util.List;

/**
 * Writes a mini-block page: buffer 0 holds one metadata word per chunk (u16 in 2.1, u32 in
 * 2.2: (chunk bytes / 8 - 1) shifted left by 4, then log2 of the value count), buffer 1 the
 * chunks. A chunk is a header (u16 level count, u16 def size when the page has def levels, one
 * size per value buffer: u16 in 2.1, u32 in 2.2), then the def bytes and each value buffer,
 * every part padded with 0xFE to 8 bytes.
 */
public final class MiniBlockPageEncoder {
  private static final byte PAD = (byte) 0xFE;
  /** 12 bits of (words - 1) in a 2.1 metadata word. */
  private static final long MAX_WORDS_SMALL = 1 << 12;
  /** 28 bits of (words - 1) in a 2.2 metadata word. */
  private static final long MAX_WORDS_LARGE = 1L << 28;

  /** 2.2 writers compress dictionary values with lz4 unless told otherwise, as the reference does. */
  static final String DICTIONARY_VALUES_SCHEME_2_2 = "lz4";

  private MiniBlockPageEncoder() {}

  /**
   * How the errors start that say a chunk's levels overflow the grammar's u16 counts and sizes
   * (many empty or null lists around few values): 2.1/2.2 cannot store such a page as mini-blocks,
   * 2.3 stores its structure sparse instead.
   */
  private static final String LEVEL_BUDGET = "mini-block: structural budget: ";

  /** Whether {@code e} is the mini-block encoder's structural-budget overflow. */
  public static boolean exceedsLevelBudget(LanceCodecException e) {
    return e.kind() == LanceCodecException.Kind.UNSUPPORTED && e.getMessage().startsWith(LEVEL_BUDGET);
  }

  public static PhysicalPage<MiniBlockSpec> encode(PageInput page, LayoutContext ctx) {
    return encode(page, ctx, null);
  }

  /**
   * With a dictionary, the chunks hold its indices and the items go to buffer 2. The repetition
   * index, when the page has lists, is the last buffer.
   */
  public static PhysicalPage<MiniBlockSpec> encode(PageInput page, LayoutContext ctx, DictionaryEncoder.Result dict) {
    return encode(page, ctx, dict, Long.MAX_VALUE);
  }

  /**
   * {@code sizeToBeat}: the caller keeps this page only if its chunks take at most that many
   * bytes (see {@link LayoutContext#compressMiniBlock(io.lancecodec.spi.DataBlock, io.lancecodec.spi.FieldOptions, long)}).
   */
  static PhysicalPage<MiniBlockSpec> encode(PageInput page, LayoutContext ctx, DictionaryEncoder.Result dict, long sizeToBeat) {
    boolean large = ctx.version().atLeast(FileVersion.V2_2);
    io.lancecodec.spi.DataBlock chunked = dict == null ? page.values() : dict.indices();
    short[] rep = page.repLevels();
    short[] def = page.defLevels();
    int totalLevels = rep != null ? rep.length : def != null ? def.length : 0;
    // The level compressors are chosen on the whole page's levels, which the values never see:
    // on a page of many levels that choice (statistics, a trial compression) goes to another
    // core while the values are compressed here.
    long sliceLevels = sliceLevels(totalLevels, chunked.numValues(), page.options().miniBlockMaxValues());
    Parallelism.Part<BlockCompressor[]> levelCompressors = totalLevels >= PARALLEL_MIN_LEVELS
        ? Parallelism.start(() -> levelCompressors(ctx, rep, def, sliceLevels))
        : null;
    // Chunks without levels and of one buffer each have a header of one size, so the compressor
    // can write them in their places in the page: copying a page of token ids into the frame was
    // a tenth of writing it.
    int frame = pad8(2 + (large ? 4 : 2));
    boolean frameable = rep == null && def == null;
    MiniBlockCompressed values = frameable
        ? ctx.compressMiniBlockFramed(chunked, page.options(), sizeToBeat, frame)
        : ctx.compressMiniBlock(chunked, page.options(), sizeToBeat);
    int numBuffers = values.buffers().size();
    if (values.framed() && (!frameable || values.frameHeaderBytes() != frame || numBuffers != 1)) {
      throw LanceCodecException.internal("mini-block: chunks framed after " + values.frameHeaderBytes() + " bytes in "
          + numBuffers + " buffers; " + (frameable ? "asked for " + frame + " in one" : "not asked for"));
    }
    int maxRep = rep == null ? 0 : Levels.maxRep(page.layers());
    int maxVisible = Levels.maxVisibleDef(page.layers());
    if (rep != null && def != null && rep.length != def.length) {
      throw LanceCodecException.invalidArgument("mini-block: " + rep.length + " rep levels but " + def.length + " def levels");
    }
    BlockCompressor[] levelCompressor = levelCompressors != null ? levelCompressors.join() : levelCompressors(ctx, rep, def, sliceLevels);
    BlockCompressor repCompressor = levelCompressor[0];
    BlockCompressor defCompressor = levelCompressor[1];
    Message repEncoding = null;
    Message defEncoding = null;

    List<MiniBlockChunk> chunks = values.chunks();
    int nChunks = chunks.size();
    // Per chunk: rows that end in it, (depth 2) the row or inner-list starts of its trailing
    // row, and items left over after its last complete row.
    int depth = rep == null ? 0 : Math.min(page.options().repetitionIndexDepth(), maxRep);
    int stride = depth + 1;
    long[] repIndex = rep == null ? null : new long[stride * nChunks];
    // Sizes first (levels compressed, every chunk measured), then one page buffer of the exact
    // size written once: an upper-bound buffer trimmed at the end copied every page twice.
    byte[][] repBytes = rep == null ? null : new byte[nChunks][];
    byte[][] defBytes = def == null ? null : new byte[nChunks][];
    int[] numLevels = new int[nChunks];
    int[] sizes = new int[nChunks];
    int header = 2 + (rep != null ? 2 : 0) + (def != null ? 2 : 0) + numBuffers * (large ? 4 : 2);
    long item = 0;
    int levelPos = 0;
    long total = 0;
    for (int k = 0; k < nChunks; k++) {
      MiniBlockChunk chunk = chunks.get(k);
      boolean last = k == nChunks - 1;
      long n = last ? values.numValues() - item : 1L << chunk.logNumValues();
      int l0 = levelPos;
      int l1 = last ? totalLevels : rep == null ? (int) (l0 + n) : afterVisible(def, l0, n, maxVisible, totalLevels);
      levelPos = l1;
      long size = pad8(header);
      if (rep != null) {
        Encoded<byte[]> enc = repCompressor.compress(Levels.block(rep, l0, l1));
        repBytes[k] = enc.data();
        repEncoding = enc.encoding();
        if (repBytes[k].length > 0xFFFF) {
          throw LanceCodecException.unsupported(LEVEL_BUDGET + "rep levels of a chunk exceed 64 KiB");
        }
        indexChunk(rep, l0, l1, k, last, maxRep, stride, repIndex);
        size += pad8(repBytes[k].length);
      }
      if (def != null) {
        Encoded<byte[]> enc = defCompressor.compress(Levels.block(def, l0, l1));
        defBytes[k] = enc.data();
        defEncoding = enc.encoding();
        if (defBytes[k].length > 0xFFFF) {
          throw LanceCodecException.unsupported(LEVEL_BUDGET + "def levels of a chunk exceed 64 KiB");
        }
        size += pad8(defBytes[k].length);
      }
      numLevels[k] = rep != null || def != null ? l1 - l0 : 0;
      if (numLevels[k] > 0xFFFF) {
        throw LanceCodecException.unsupported(LEVEL_BUDGET + "a chunk holds " + numLevels[k] + " levels, more than a u16 counts");
      }
      for (int b = 0; b < numBuffers; b++) {
        int s = chunk.bufferSizes()[b];
        if (!large && s > 0xFFFF) {
          throw LanceCodecException.unsupported("mini-block: a 2.1 chunk buffer exceeds 64 KiB");
        }
        size += pad8(s);
      }
      long words = size / 8;
      if (words - 1 >= (large ? MAX_WORDS_LARGE : MAX_WORDS_SMALL)) {
        throw LanceCodecException.unsupported("mini-block: chunk of " + size + " bytes exceeds the layout's limit");
      }
      sizes[k] = (int) size;
      total += size;
      item += n;
    }
    // chunks are written back to back with their headers and padding, every byte (checked below),
    // so a recycled array will do
    byte[] chunkBytes = values.framed() ? values.buffers().get(0) : PageArrays.forPage(LanceCodecException.checkedInt(total, "mini-block: page size"));
    if (chunkBytes.length != total) {
      throw LanceCodecException.internal("mini-block: chunks framed in " + chunkBytes.length + " bytes, " + total + " expected");
    }
    byte[] meta = new byte[nChunks * (large ? 4 : 2)];
    int[] bufferPos = new int[numBuffers];
    int pos = 0;
    for (int k = 0; k < nChunks; k++) {
      int end = values.framed()
          ? frameChunk(chunkBytes, pos, chunks.get(k).bufferSizes()[0], large)
          : writeChunk(chunkBytes, pos, numLevels[k], repBytes == null ? null : repBytes[k],
              defBytes == null ? null : defBytes[k], chunks.get(k).bufferSizes(), values.buffers(), bufferPos, large);
      if (end != pos + sizes[k]) {
        throw LanceCodecException.internal("mini-block: chunk " + k + " wrote " + (end - pos) + " of " + sizes[k] + " bytes");
      }
      // chunk sizes are multiples of 8, so every chunk starts 8-aligned in the page
      long word = ((long) (sizes[k] / 8 - 1) << 4) | chunks.get(k).logNumValues();
      LittleEndian.putUnsigned(meta, k * (large ? 4 : 2), large ? 4 : 2, word);
      pos = end;
    }
    // a page without chunks still names its level compression
    if (rep != null && repEncoding == null) {
      repEncoding = repCompressor.compress(Levels.block(rep, 0, 0)).encoding();
    }
    if (def != null && defEncoding == null) {
      defEncoding = defCompressor.compress(Levels.block(def, 0, 0)).encoding();
    }
    List<byte[]> buffers = new java.util.ArrayList<>(List.of(meta, chunkBytes));
    Message dictionary = null;
    long dictionaryItems = 0;
    if (dict != null) {
      Encoded<byte[]> items = ctx.compressBlock(dict.items(), page.options().forDictionaryValues(large ? DICTIONARY_VALUES_SCHEME_2_2 : null));
      dictionary = items.encoding();
      dictionaryItems = dict.numItems();
      buffers.add(items.data());
    }
    if (repIndex != null) {
      byte[] index = new byte[repIndex.length * 8];
      for (int i = 0; i < repIndex.length; i++) {
        LittleEndian.putLong(index, i * 8, repIndex[i]);
      }
      buffers.add(index);
    }
    MiniBlockSpec spec = new MiniBlockSpec(page.layers(), values.encoding(), repEncoding, defEncoding,
        dictionary, dictionaryItems, numBuffers, values.numValues(), rep == null ? 0 : depth, large, 0);
    return new PhysicalPage<>(buffers, spec);
  }

  /** Pages with at least this many levels choose their level compressors on another core. */
  static final int PARALLEL_MIN_LEVELS = 16 * 1024;

  /** The rep and def levels' compressors (null where the page has no such levels). */
  private static BlockCompressor[] levelCompressors(LayoutContext ctx, short[] rep, short[] def, long sliceLevels) {
    return new BlockCompressor[] {
        rep == null ? null : ctx.levelsFor(Levels.block(rep, 0, rep.length), sliceLevels),
        def == null ? null : ctx.levelsFor(Levels.block(def, 0, def.length), sliceLevels)};
  }

  /**
   * The levels one chunk holds, at most on average: the page's levels over the fewest chunks its
   * values fit in, and never more than a chunk header counts. Known before the values are chunked,
   * so the levels' compressor can be chosen beside them.
   */
  static long sliceLevels(long levels, long values, int maxValuesPerChunk) {
    long fewestChunks = Math.max(1, (values + maxValuesPerChunk - 1) / maxValuesPerChunk);
    return Math.max(1, Math.min(0xFFFF, (levels + fewestChunks - 1) / fewestChunks));
  }

  /**
   * Writes one chunk at {@code data[pos]}: its header, its levels and its part of every value
   * buffer (advancing {@code bufferPos}), each padded to 8 bytes; returns the position after it.
   */
  private static int writeChunk(byte[] data, int pos, int numLevels, byte[] repBytes, byte[] defBytes, int[] bufferSizes,
      List<byte[]> buffers, int[] bufferPos, boolean large) {
    LittleEndian.putShort(data, pos, (short) numLevels);
    pos += 2;
    if (repBytes != null) {
      LittleEndian.putShort(data, pos, (short) repBytes.length);
      pos += 2;
    }
    if (defBytes != null) {
      LittleEndian.putShort(data, pos, (short) defBytes.length);
      pos += 2;
    }
    for (int s : bufferSizes) {
      if (large) {
        LittleEndian.putInt(data, pos, s);
        pos += 4;
      } else {
        LittleEndian.putShort(data, pos, (short) s);
        pos += 2;
      }
    }
    pos = padTo8(data, pos);
    if (repBytes != null) {
      System.arraycopy(repBytes, 0, data, pos, repBytes.length);
      pos = padTo8(data, pos + repBytes.length);
    }
    if (defBytes != null) {
      System.arraycopy(defBytes, 0, data, pos, defBytes.length);
      pos = padTo8(data, pos + defBytes.length);
    }
    for (int b = 0; b < bufferSizes.length; b++) {
      System.arraycopy(buffers.get(b), bufferPos[b], data, pos, bufferSizes[b]);
      bufferPos[b] += bufferSizes[b];
      pos = padTo8(data, pos + bufferSizes[b]);
    }
    return pos;
  }

  /**
   * {@link #writeChunk} for a chunk of one buffer and no levels that the compressor wrote in its
   * place ({@link MiniBlockCompressed#framed}): the header and the padding around the buffer.
   */
  private static int frameChunk(byte[] data, int pos, int size, boolean large) {
    LittleEndian.putShort(data, pos, (short) 0);
    if (large) {
      LittleEndian.putInt(data, pos + 2, size);
      pos = padTo8(data, pos + 6);
    } else {
      LittleEndian.putShort(data, pos + 2, (short) size);
      pos = padTo8(data, pos + 4);
    }
    return padTo8(data, pos + size);
  }

  /** Pads with {@link #PAD} from {@code pos} to the next multiple of 8; returns that position. */
  private static int padTo8(byte[] b, int pos) {
    int end = pad8(pos);
    java.util.Arrays.fill(b, pos, end, PAD);
    return end;
  }

  /** The level position just after the {@code n}-th visible level from {@code from}. */
  private static int afterVisible(short[] def, int from, long n, int maxVisible, int total) {
    if (def == null) {
      return (int) (from + n);
    }
    int i = from;
    long taken = 0;
    while (taken < n && i < total) {
      taken += (def[i] & 0xFFFF) <= maxVisible ? 1 : 0;
      i++;
    }
    return i;
  }

  /**
   * The repetition index entry of chunk {@code k}: rows ending in it (a new row starts with the
   * highest rep level), with depth 2 a word for its trailing row (below), and items left over
   * after its last complete row. A chunk that turns out to start a row ends the previous chunk's
   * leftover row there.
   *
   * <p>The depth-2 word is twice the number of levels of the trailing row's part in this chunk
   * that start the row or one of its inner lists, plus one when that part begins inside an inner
   * list. The low bit makes the word non-zero exactly when the chunk has a trailing row, which is
   * all a depth-1 reader (the reference's) reads from the second entry, so such readers still
   * read these pages; the count itself locates {@code rows[i][j]}.
   */
  private static void indexChunk(short[] rep, int l0, int l1, int k, boolean last, int maxRep, int stride, long[] index) {
    long rows = 0;
    for (int i = l0 + 1; i < l1; i++) {
      rows += rep[i] == maxRep ? 1 : 0;
    }
    long left = 0;
    long lists = 0;
    if (!last) {
      int lastStart = -1;
      for (int i = l1 - 1; i >= l0; i--) {
        if (rep[i] == maxRep) {
          lastStart = i;
          break;
        }
      }
      int trailer = lastStart < 0 ? l0 : lastStart;
      left = l1 - trailer;
      for (int i = trailer; stride > 2 && i < l1; i++) {
        lists += rep[i] >= maxRep - 1 ? 2 : 0;
      }
      lists += trailer == l0 && rep[l0] < maxRep - 1 ? 1 : 0;
    }
    int prev = (k - 1) * stride;
    if (k > 0 && l1 > l0 && rep[l0] == maxRep && index[prev + stride - 1] != 0) {
      index[prev]++;
      java.util.Arrays.fill(index, prev + 1, prev + stride, 0);
    }
    if (last) {
      rows++;
    }
    int at = k * stride;
    index[at] = rows;
    if (stride > 2) {
      index[at + 1] = lists;
    }
    index[at + stride - 1] = left;
  }

  public static int pad8(int n) {
    return (n + 7) & ~7;
  }
}
