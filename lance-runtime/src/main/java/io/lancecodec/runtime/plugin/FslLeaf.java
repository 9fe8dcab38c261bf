package io.lancecodec.runtime.plugin;

import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.FixedSizeList;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.PerValueCompressor;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Fixed-size-list leaf compression (2.3): the list layers are a shape over one stream of leaf
 * values, and that stream gets whatever leaf codec the registry offers for it instead of Flat
 * ({@code FixedSizeList{..., values = X}}). X decodes <em>one mini-block chunk</em> of leaf
 * values, in both contexts:
 *
 * <ul>
 *   <li>mini-block: a chunk of {@code m} rows is the validity buffers of the levels that have it
 *       (as without leaf compression) followed by X's buffers for one X chunk of {@code m * D}
 *       leaf values (D the items of a row);
 *   <li>per value: a zipped row is the validity bytes of the levels that have it followed by X's
 *       single buffer for one X chunk of the row's D leaf values; rows are fixed width when all
 *       are the same size, else variable-width values.
 * </ul>
 *
 * X must decode to fixed-width byte-aligned values ({@link FixedWidthMiniBlockDecompressor}),
 * and is none of the encodings that are not a leaf stream's (strings, structures, the generic
 * block codecs, Pcodec, which wraps a list from outside, AxisDelta); per value it is also not
 * General, which wraps the whole row instead ({@code General{FixedSizeList{...}}}). Readers of
 * 2.1/2.2 and every other place refuse it with the capability named. docs/wire/compression-2.3.md
 * §3.10 has the bytes and the writer's policy.
 */
final class FslLeaf {
  /** The capability a reader names when it meets a leaf encoding it cannot read. */
  static final String CAPABILITY = "fixed-size-list-leaf-compression";

  /** Leaf values in one chunk (or row) the writer compresses: beyond that, rows stay flat. */
  static final int MAX_WRITE_ITEMS = 1 << 16;

  /** Leaf values in one chunk a reader decodes: far above what writers make, so a forged count is refused first. */
  static final long MAX_READ_ITEMS = 1 << 22;

  /** Bytes per value a zipped variable-width row costs beyond its own: its length and its repetition-index entry. */
  private static final int ZIPPED_VARIABLE_OVERHEAD = 4 + 8;

  private FslLeaf() {}

  /** An unsupported leaf, with the capability named (what the proposal asks readers to say). */
  static LanceCodecException unsupported(String encoding, String why) {
    return LanceCodecException.unsupported("unsupported FixedSizeList leaf encoding: " + encoding + " (needs " + CAPABILITY
        + (why.isEmpty() ? "" : "; " + why) + ")");
  }

  // ---------------------------------------------------------------- shape

  /** The layers of a 2.3 list down to its leaf encoding: dimensions, validity, and the leaf (Flat or compressed). */
  record Layers(long[] dims, boolean[] validity, CompressiveEncoding leaf) {
    FslShape shape(int leafBits) {
      return new FslShape(dims, validity, leafBits);
    }

    long items() {
      long n = 1;
      for (long d : dims) {
        n *= d;
      }
      return n;
    }
  }

  static Layers layers(FixedSizeList f) {
    List<Long> dims = new ArrayList<>();
    List<Boolean> valid = new ArrayList<>();
    long product = 1;
    CompressiveEncoding values;
    while (true) {
      long d = f.getItemsPerValue();
      if (d <= 0 || d > FslShape.MAX_ROW_BITS || dims.size() >= FslShape.MAX_LEVELS) {
        throw LanceCodecException.corrupt("fixed_size_list of " + Long.toUnsignedString(d) + " items at depth " + dims.size());
      }
      product *= d;
      if (product > FslShape.MAX_ROW_BITS) {
        throw LanceCodecException.corrupt("fixed_size_list of " + product + " items per row, over " + FslShape.MAX_ROW_BITS);
      }
      dims.add(d);
      valid.add(f.getHasValidity());
      if (!f.hasValues()) {
        throw LanceCodecException.corrupt("fixed_size_list without values");
      }
      values = f.getValues();
      if (!values.hasFixedSizeList()) {
        break;
      }
      f = values.getFixedSizeList();
    }
    long[] d = new long[dims.size()];
    boolean[] v = new boolean[dims.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = dims.get(i);
      v[i] = valid.get(i);
    }
    return new Layers(d, v, values);
  }

  /** {@code shape}'s layers over {@code leaf} in place of Flat. */
  static CompressiveEncoding encoding(FslShape shape, CompressiveEncoding leaf) {
    CompressiveEncoding e = leaf;
    for (int l = shape.levels() - 1; l >= 0; l--) {
      e = CompressiveEncoding.newBuilder()
          .setFixedSizeList(FixedSizeList.newBuilder()
              .setItemsPerValue(shape.dims()[l]).setHasValidity(shape.validity()[l]).setValues(e))
          .build();
    }
    return e;
  }

  /** Why {@code leaf} cannot be a list's leaf in this context; empty when it may be. */
  private static String refusal(CompressiveEncoding leaf, boolean perValue) {
    switch (leaf.getCompressionCase()) {
      case FLAT:
      case INLINE_BITPACKING:
      case BYTE_STREAM_SPLIT:
      case ALP:
        return "";
      case GENERAL:
        return perValue ? "per value, general compression wraps the whole row, General{FixedSizeList{...}}" : "";
      case EXTENSION:
      case COMPRESSION_NOT_SET:
        return "not a leaf encoding this reader knows";
      default:
        return "not a leaf encoding: leaves are fixed-width mini-block encodings";
    }
  }

  /**
   * The decoder of a leaf in a chunk ({@code perValue}: of one zipped row), which must decode to
   * byte-aligned fixed-width values of at most 64 bits.
   */
  private static FixedWidthMiniBlockDecompressor openLeaf(CompressiveEncoding leaf, Decoders children, boolean perValue) {
    String name = io.lancecodec.format.UnsignedBlockGrammar.caseName(leaf);
    String why = refusal(leaf, perValue);
    if (!why.isEmpty()) {
      throw unsupported(name, why);
    }
    MiniBlockDecompressor d = children.miniBlock(leaf);
    if (!(d instanceof FixedWidthMiniBlockDecompressor f) || f.bitsPerValue() % 8 != 0 || f.bitsPerValue() <= 0 || f.bitsPerValue() > 64) {
      throw unsupported(name, "its decoder does not yield fixed-width values of whole bytes");
    }
    return f;
  }

  // ---------------------------------------------------------------- mini-block

  static MiniBlockDecompressor openMiniBlock(Layers layers, Decoders children) {
    FixedWidthMiniBlockDecompressor leaf = openLeaf(layers.leaf(), children, false);
    FslShape shape = layers.shape(leaf.bitsPerValue());
    if (shape.leafItems() * shape.leafBits() > FslShape.MAX_ROW_BITS) {
      throw LanceCodecException.corrupt("fixed_size_list of " + shape.leafItems() + " x " + shape.leafBits() + " bits per row");
    }
    return shape.anyValidity() ? new ChunkWithValidity(shape, leaf) : new Chunk(shape, leaf);
  }

  /** The leaf buffers of a chunk (those after its {@code skip} validity buffers), without copying. */
  private static MiniBlockBuffers tail(MiniBlockBuffers chunk, int skip) {
    int n = chunk.count() - skip;
    int[] offsets = new int[n];
    int[] sizes = new int[n];
    for (int i = 0; i < n; i++) {
      offsets[i] = chunk.offset(skip + i);
      sizes[i] = chunk.size(skip + i);
    }
    return new MiniBlockBuffers(chunk.bytes(), offsets, sizes);
  }

  private static int leafCount(FslShape shape, long rows) {
    long items = rows * shape.leafItems();
    if (rows < 0 || items > MAX_READ_ITEMS) {
      throw LanceCodecException.corrupt("fixed_size_list: a chunk of " + rows + " lists of " + shape.leafItems()
          + " items exceeds " + MAX_READ_ITEMS + " leaf values");
    }
    return (int) items;
  }

  /** Rows without validity: each row is its leaf values, so a row range is a leaf range. */
  private record Chunk(FslShape shape, FixedWidthMiniBlockDecompressor leaf) implements FixedWidthMiniBlockDecompressor {
    @Override
    public int bitsPerValue() {
      return (int) (shape.leafItems() * shape.leafBits());
    }

    @Override
    public void decodeInto(MiniBlockBuffers chunk, int numValues, int from, int to, byte[] dst, int dstOffset) {
      int items = leafCount(shape, numValues);
      int d = (int) shape.leafItems();
      if (from < 0 || from > to || to > numValues) {
        throw LanceCodecException.invalidArgument("fixed_size_list: rows [" + from + ", " + to + ") of a chunk of " + numValues);
      }
      leaf.decodeInto(chunk, items, from * d, to * d, dst, dstOffset);
    }

    @Override
    public long maxBufferBytes(int buffer, int numValues) {
      long items = (long) numValues * shape.leafItems();
      return items > MAX_READ_ITEMS ? -1 : leaf.maxBufferBytes(buffer, (int) items);
    }
  }

  /** Rows with item validity at some level: the validity buffers first, then the leaf's. */
  private record ChunkWithValidity(FslShape shape, FixedWidthMiniBlockDecompressor leaf) implements MiniBlockDecompressor {
    @Override
    public DataBlock decompress(MiniBlockBuffers chunk, int numValues, DecodeBuffers reuse) {
      int items = leafCount(shape, numValues);
      int stored = 0;
      for (boolean v : shape.validity()) {
        stored += v ? 1 : 0;
      }
      if (chunk.count() <= stored) {
        throw LanceCodecException.corrupt("fixed_size_list: chunk has " + chunk.count() + " buffers, " + stored
            + " of validity and the leaf's expected");
      }
      byte[][] validity = new byte[shape.levels()][];
      int b = 0;
      for (int l = 0; l < shape.levels(); l++) {
        if (shape.validity()[l]) {
          long bytes = (numValues * shape.items(l) + 7) / 8;
          if (bytes != chunk.size(b)) {
            throw LanceCodecException.corrupt("fixed_size_list: " + numValues + " lists need " + numValues * shape.items(l)
                + " validity bits at depth " + l + ", chunk buffer has " + chunk.size(b) + " bytes");
          }
          validity[l] = chunk.copy(b++);
        }
      }
      byte[] values = new byte[LanceCodecException.checkedInt((long) items * (shape.leafBits() / 8), "leaf values")];
      leaf.decodeInto(tail(chunk, stored), items, 0, items, values, 0);
      return new DataBlock.FixedWidth(FslValidity.rows(shape, validity, values, numValues, reuse), (int) (shape.rowBytes() * 8), numValues);
    }
  }

  /**
   * The leaf-compressed offer for a page of lists in mini-blocks, or {@code flat} when no leaf
   * codec makes the page smaller (or the field turned leaf compression off). Rows per chunk are a
   * power of two sized from the chosen codec's bytes per row on a sample, aiming at the chunk
   * size flat values aim at; a chunk over the format's budget is halved.
   */
  static Optional<Proposal<MiniBlockCompressed>> proposeMiniBlock(
      FslShape.Parts parts, ProposalContext context, Optional<Proposal<MiniBlockCompressed>> flat) {
    Leaf plan = plan(parts, context, false);
    if (plan == null) {
      return flat;
    }
    MiniBlockCompressed out = new ChunkCompressor(plan).compressOrNull(parts);
    if (out == null) {
      return flat;
    }
    long bytes = MiniBlocks.storedBytes(out, context.version()) + out.encoding().getSerializedSize();
    boolean forced = context.options().fslLeaf() == FieldOptions.Mode.ON;
    if (!forced && flat.isPresent() && bytes >= flat.get().estimatedBytes()) {
      return flat;
    }
    MiniBlockCompressor again = b -> {
      MiniBlockCompressed r = new ChunkCompressor(plan).compressOrNull(FslShape.parts(b));
      if (r == null) {
        throw LanceCodecException.internal("fixed_size_list: leaf codec " + plan.offer.codec() + " failed on another page");
      }
      return r;
    };
    return Optional.of(Proposal.measured("fsl-leaf-" + plan.offer.codec(), bytes, again, out));
  }

  /** The leaf codec chosen for a page: the offer made on a sample, and rows per chunk. */
  private record Leaf(Proposal<MiniBlockCompressed> offer, int rowsPerChunk) {
    /**
     * The leaf of rows {@code [row, row + n)} as one chunk, or null when the codec breaks the
     * rules (several chunks, another descriptor than the page's first in {@code descriptor[0]}).
     */
    MiniBlockCompressed chunk(FslShape.Parts parts, long row, long n, CompressiveEncoding[] descriptor, byte[] into) {
      MiniBlockCompressed leaf = offer.compressor().compress(leafOf(parts, row, n, into));
      return leaf.chunks().size() == 1 && sameDescriptor(descriptor, leaf) ? leaf : null;
    }
  }

  /** Whether {@code leaf} has the page's descriptor, {@code descriptor[0]} (set by the first chunk). */
  private static boolean sameDescriptor(CompressiveEncoding[] descriptor, MiniBlockCompressed leaf) {
    if (descriptor[0] == null) {
      descriptor[0] = (CompressiveEncoding) leaf.encoding();
    }
    return descriptor[0].equals(leaf.encoding());
  }

  /** The next smaller chunk after one of {@code n} rows would not do: a power of two (a tail that is not one becomes one, the rest a new tail), 0 after one row. */
  private static long smaller(long n) {
    return n == 1 ? 0 : Long.highestOneBit(n) == n ? n / 2 : Long.highestOneBit(n);
  }

  /**
   * Picks the leaf codec on a sample of rows spread over the page; null when the page does not
   * qualify or Flat is the best offer (unless the field forces leaf compression).
   */
  private static Leaf plan(FslShape.Parts parts, ProposalContext context, boolean perValue) {
    FieldOptions options = context.options();
    FslShape shape = parts.shape();
    long d = shape.leafItems();
    int bits = shape.leafBits();
    if (options.fslLeaf() == FieldOptions.Mode.OFF || options.compressionNone() || parts.rows() == 0
        || bits % 8 != 0 || bits > 64 || d > MAX_WRITE_ITEMS
        || !(context instanceof RuntimeLayoutContext.LeafOffers leaves)) {
      return null;
    }
    long rowBytes = d * bits / 8;
    int maxRows = MiniBlocks.fullChunkValues(options.miniBlockMaxValues());
    // zipped rows: the offer is for the whole page, compressed row by row (so that a codec can
    // give every row one size); chunks: for a sample of rows spread over the page
    int sampleRows = (int) Math.min(perValue ? parts.rows() : rowsFitting(rowBytes, d, maxRows), parts.rows());
    DataBlock.FixedWidth sample = perValue ? new DataBlock.FixedWidth(parts.values(), bits, parts.rows() * d) : sample(parts, sampleRows);
    for (Proposal<MiniBlockCompressed> p : leaves.leafOffers(sample, perValue ? d : 0)) {
      // the descriptor, from one row (a page offered row by row is not compressed whole)
      MiniBlockCompressed probe = perValue ? p.compressor().compress(leafOf(parts, parts.rows() / 2, 1)) : p.result();
      CompressiveEncoding e = (CompressiveEncoding) probe.encoding();
      if (e.hasFlat()) {
        if (options.fslLeaf() == FieldOptions.Mode.ON) {
          continue;
        }
        return null;
      }
      if (!refusal(e, perValue).isEmpty() || probe.chunks().size() != 1 || (perValue && probe.buffers().size() != 1)) {
        continue;
      }
      long perRow = Math.max(1, p.estimatedBytes() / sampleRows);
      int rows = perValue ? 1 : rowsFitting(perRow, d, maxRows);
      return new Leaf(p, rows);
    }
    return null;
  }

  /** The largest power of two of rows of {@code rowBytes} within the flat chunk target, at least one. */
  private static int rowsFitting(long rowBytes, long d, int maxRows) {
    int rows = 1;
    while (2L * rows * rowBytes <= MiniBlocks.FIXED_TARGET_BYTES && 2L * rows <= maxRows && 2L * rows * d <= MAX_WRITE_ITEMS) {
      rows *= 2;
    }
    return rows;
  }

  /** The leaf values of {@code n} rows spread evenly over the page, as one block. */
  private static DataBlock.FixedWidth sample(FslShape.Parts parts, int n) {
    FslShape s = parts.shape();
    int rowBytes = (int) s.valueBytes();
    byte[] out = new byte[n * rowBytes];
    for (int k = 0; k < n; k++) {
      long row = (2L * k + 1) * parts.rows() / (2L * n);
      System.arraycopy(parts.values(), (int) (row * rowBytes), out, k * rowBytes, rowBytes);
    }
    return new DataBlock.FixedWidth(out, s.leafBits(), n * s.leafItems());
  }

  /** The leaf values of rows {@code [row, row + n)}. */
  private static DataBlock.FixedWidth leafOf(FslShape.Parts parts, long row, long n) {
    return leafOf(parts, row, n, null);
  }

  /**
   * The same in {@code into} when it is large enough (a compressor is done with its block before
   * the next row is copied in, and its output is copied out at once, so one array serves a page).
   */
  private static DataBlock.FixedWidth leafOf(FslShape.Parts parts, long row, long n, byte[] into) {
    FslShape s = parts.shape();
    int rowBytes = (int) s.valueBytes();
    int len = (int) (n * rowBytes);
    byte[] v = into != null && into.length >= len ? into : new byte[len];
    System.arraycopy(parts.values(), (int) (row * rowBytes), v, 0, len);
    return new DataBlock.FixedWidth(v, s.leafBits(), n * s.leafItems());
  }

  /** Chunks of whole rows with the leaf compressed by the planned codec. */
  private static final class ChunkCompressor {
    private final Leaf plan;
    private final List<ByteSink> buffers = new ArrayList<>();
    private final List<MiniBlockChunk> chunks = new ArrayList<>();
    private final CompressiveEncoding[] descriptor = new CompressiveEncoding[1];

    ChunkCompressor(Leaf plan) {
      this.plan = plan;
    }

    /** The page in chunks, or null when the leaf codec breaks a rule (several chunks, other descriptors, a chunk too big). */
    MiniBlockCompressed compressOrNull(FslShape.Parts parts) {
      FslShape s = parts.shape();
      List<Integer> stored = new ArrayList<>();
      for (int l = 0; l < s.levels(); l++) {
        if (s.validity()[l]) {
          stored.add(l);
        }
      }
      long rows = parts.rows();
      long row = 0;
      byte[] into = new byte[(int) (Math.min(plan.rowsPerChunk(), rows) * s.valueBytes())];
      while (row < rows) {
        long n = Math.min(plan.rowsPerChunk(), rows - row);
        while (true) {
          MiniBlockCompressed leaf = plan.offer().compressor().compress(leafOf(parts, row, n, into));
          if (leaf.chunks().size() != 1) {
            // a codec whose chunks hold fewer values (ALP: 1024) takes fewer rows at a time
            n = smaller(n);
            if (n == 0) {
              return null;
            }
            continue;
          }
          if (!sameDescriptor(descriptor, leaf)) {
            return null;
          }
          int nb = stored.size() + leaf.buffers().size();
          int[] sizes = new int[nb];
          long bytes = MiniBlocks.headerBytes(nb, FileVersion.V2_3);
          for (int i = 0; i < stored.size(); i++) {
            sizes[i] = (int) ((n * s.items(stored.get(i)) + 7) / 8);
            bytes += MiniBlocks.pad8(sizes[i]);
          }
          for (int i = 0; i < leaf.buffers().size(); i++) {
            sizes[stored.size() + i] = leaf.chunks().get(0).bufferSizes()[i];
            bytes += MiniBlocks.pad8(sizes[stored.size() + i]);
          }
          if (bytes > MiniBlocks.MAX_CHUNK_BYTES_2_1) {
            n = smaller(n);
            if (n == 0) {
              return null;
            }
            continue;
          }
          while (buffers.size() < nb) {
            buffers.add(new ByteSink());
          }
          if (buffers.size() != nb) {
            return null;
          }
          for (int i = 0; i < stored.size(); i++) {
            long perRow = s.items(stored.get(i));
            byte[] bits = new byte[sizes[i]];
            FslValidity.copyBits(parts.validity()[stored.get(i)], row * perRow, bits, 0, n * perRow);
            buffers.get(i).add(bits, 0, bits.length);
          }
          for (int i = 0; i < leaf.buffers().size(); i++) {
            byte[] b = leaf.buffers().get(i);
            buffers.get(stored.size() + i).add(b, 0, b.length);
          }
          boolean last = row + n == rows;
          chunks.add(new MiniBlockChunk(sizes, MiniBlocks.logNumValues((int) n, last)));
          row += n;
          break;
        }
      }
      List<byte[]> out = new ArrayList<>(buffers.size());
      for (ByteSink b : buffers) {
        out.add(b.toArray());
      }
      return new MiniBlockCompressed(out, chunks, rows, encoding(s, descriptor[0]));
    }
  }

  /** A growable byte array. */
  private static final class ByteSink {
    private byte[] data;
    private int size;

    ByteSink() {
      this(1024);
    }

    ByteSink(long expected) {
      data = new byte[(int) Math.max(1024, Math.min(expected, Integer.MAX_VALUE - 8))];
    }

    void add(byte[] b, int off, int len) {
      if (size + len > data.length) {
        data = java.util.Arrays.copyOf(data, Math.max(size + len, 2 * data.length));
      }
      System.arraycopy(b, off, data, size, len);
      size += len;
    }

    byte[] toArray() {
      return size == data.length ? data : java.util.Arrays.copyOf(data, size);
    }
  }

  // ---------------------------------------------------------------- per value

  static PerValueDecompressor openPerValue(Layers layers, Decoders children) {
    FixedWidthMiniBlockDecompressor leaf = openLeaf(layers.leaf(), children, true);
    FslShape shape = layers.shape(leaf.bitsPerValue());
    if (shape.leafItems() * shape.leafBits() > FslShape.MAX_ROW_BITS || shape.leafItems() > MAX_READ_ITEMS) {
      throw LanceCodecException.corrupt("fixed_size_list of " + shape.leafItems() + " x " + shape.leafBits() + " bits per row");
    }
    return new Rows(shape, leaf);
  }

  /** Zipped rows: each the validity bytes of the levels that have it, then one leaf chunk of the row's values. */
  private record Rows(FslShape shape, FixedWidthMiniBlockDecompressor leaf) implements PerValueDecompressor {
    @Override
    public long decodedBits() {
      return shape.anyValidity() ? 0 : shape.valueBytes() * 8;
    }

    @Override
    public DataBlock decompress(DataBlock block, DecodeBuffers reuse) {
      long n = block.numValues();
      // without validity the decoded row is its values, as the plain rows' decoder hands them on
      boolean plain = !shape.anyValidity();
      long full = plain ? shape.valueBytes() : shape.rowBytes();
      int d = (int) shape.leafItems();
      long validityBytes = shape.zippedRowBytes() - shape.valueBytes();
      long size = LanceCodecException.checkedInt(n * full, "decoded fixed-size lists");
      // every byte of a reused array is written below (a null row's slot is zeroed)
      byte[] out = reuse == null ? new byte[(int) size] : reuse.data(size);
      byte[] src;
      if (block instanceof DataBlock.FixedWidth fw) {
        src = fw.data();
      } else if (block instanceof DataBlock.VariableWidth vw) {
        src = vw.data();
      } else {
        throw LanceCodecException.corrupt("fixed_size_list: zipped rows of a compressed leaf are neither fixed nor variable width");
      }
      long valueAt = full - shape.valueBytes();
      for (int r = 0; r < n; r++) {
        long start;
        long end;
        if (block instanceof DataBlock.FixedWidth fw) {
          long w = fw.bitsPerValue() / 8;
          start = r * w;
          end = start + w;
        } else {
          DataBlock.VariableWidth vw = (DataBlock.VariableWidth) block;
          start = vw.offset(r);
          end = vw.offset(r + 1);
        }
        if (end == start && block instanceof DataBlock.VariableWidth) {
          // a null row zips no bytes; its slot is zero, the structure says it is null
          java.util.Arrays.fill(out, (int) (r * full), (int) ((r + 1) * full), (byte) 0);
          continue;
        }
        if (end - start < validityBytes || end > src.length || start < 0) {
          throw LanceCodecException.corrupt("fixed_size_list: zipped row " + r + " of " + (end - start) + " bytes, its validity alone takes "
              + validityBytes);
        }
        long from = plain ? start : FslValidity.unzipRowValidity(shape, src, start, out, (long) r * full);
        MiniBlockBuffers row = new MiniBlockBuffers(src, new int[] {(int) from}, new int[] {(int) (end - from)});
        leaf.decodeInto(row, d, 0, d, out, (int) (r * full + valueAt));
      }
      return new DataBlock.FixedWidth(out, (int) (full * 8), n);
    }
  }

  /**
   * The leaf-compressed offer for zipped rows, or {@code flat} when no leaf codec makes them
   * smaller: one leaf chunk of one buffer per row, the codec chosen on the middle row.
   */
  static Optional<Proposal<Encoded<DataBlock>>> proposePerValue(
      FslShape.Parts parts, ProposalContext context, Optional<Proposal<Encoded<DataBlock>>> flat) {
    Leaf plan = plan(parts, context, true);
    if (plan == null) {
      return flat;
    }
    Encoded<DataBlock> out = zipped(plan, parts);
    if (out == null) {
      return flat;
    }
    long bytes = out.data() instanceof DataBlock.FixedWidth fw ? fw.usedBytes()
        : ((DataBlock.VariableWidth) out.data()).data().length + ZIPPED_VARIABLE_OVERHEAD * parts.rows();
    boolean forced = context.options().fslLeaf() == FieldOptions.Mode.ON;
    if (!forced && flat.isPresent() && bytes >= flat.get().estimatedBytes()) {
      return flat;
    }
    PerValueCompressor again = b -> {
      Encoded<DataBlock> r = zipped(plan, FslShape.parts(b));
      if (r == null) {
        throw LanceCodecException.internal("fixed_size_list: leaf codec " + plan.offer.codec() + " failed on another page");
      }
      return r;
    };
    return Optional.of(Proposal.measured("fsl-leaf-" + plan.offer.codec(), bytes, again, out));
  }

  /** Every row zipped, or null when the leaf codec breaks a rule (not one chunk of one buffer, other descriptors). */
  private static Encoded<DataBlock> zipped(Leaf plan, FslShape.Parts parts) {
    FslShape s = parts.shape();
    int rows = LanceCodecException.checkedInt(parts.rows(), "zipped lists");
    int validityBytes = (int) (s.zippedRowBytes() - s.valueBytes());
    // sized for the offer's estimate, so that the rows are not copied again as it grows
    ByteSink data = new ByteSink(plan.offer().estimatedBytes() + (long) rows * validityBytes);
    byte[] row = new byte[(int) s.valueBytes()];
    long[] offsets = new long[rows + 1];
    CompressiveEncoding[] descriptor = new CompressiveEncoding[1];
    boolean fixed = true;
    for (int r = 0; r < rows; r++) {
      MiniBlockCompressed leaf = plan.chunk(parts, r, 1, descriptor, row);
      if (leaf == null || leaf.buffers().size() != 1) {
        return null;
      }
      if (validityBytes > 0) {
        byte[] v = new byte[validityBytes];
        int at = 0;
        for (int l = 0; l < s.levels(); l++) {
          if (s.validity()[l]) {
            long items = s.items(l);
            FslValidity.copyBits(parts.validity()[l], r * items, v, (long) at * 8, items);
            at += (int) s.validityBytes(l);
          }
        }
        data.add(v, 0, v.length);
      }
      byte[] b = leaf.buffers().get(0);
      data.add(b, 0, b.length);
      offsets[r + 1] = offsets[r] + validityBytes + b.length;
      fixed &= offsets[r + 1] - offsets[r] == offsets[1];
    }
    byte[] bytes = data.toArray();
    CompressiveEncoding encoding = encoding(s, descriptor[0]);
    if (fixed && offsets[1] > 0) {
      return new Encoded<>(new DataBlock.FixedWidth(bytes, (int) (offsets[1] * 8), rows), encoding);
    }
    int offsetBits = bytes.length > Integer.MAX_VALUE - 1 ? 64 : 32;
    byte[] o = new byte[(rows + 1) * offsetBits / 8];
    for (int r = 0; r <= rows; r++) {
      if (offsetBits == 32) {
        io.lancecodec.spi.LittleEndian.putInt(o, r * 4, (int) offsets[r]);
      } else {
        io.lancecodec.spi.LittleEndian.putLong(o, r * 8, offsets[r]);
      }
    }
    return new Encoded<>(new DataBlock.VariableWidth(o, offsetBits, bytes, rows), encoding);
  }
}
