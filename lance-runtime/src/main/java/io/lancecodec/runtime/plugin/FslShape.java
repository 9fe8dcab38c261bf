package io.lancecodec.runtime.plugin;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import java.util.ArrayList;
import java.util.List;

/**
 * The shape of a fixed-size-list value over a fixed-width leaf, any depth: the dimensions outer to
 * inner, which levels' children carry a validity bitmap ({@code FixedSizeList.has_validity}), and
 * the leaf's bits (1 for booleans, else whole bytes).
 *
 * <p>Level {@code l} has {@link #items(int) items(l)} children per row (the product of the
 * dimensions up to it); its validity is one bit per child. The row form every decoder hands to
 * the vector filler is {@link #rowBytes()}: the validity of every level (rounded up to bytes,
 * outer first, all ones for a level stored without validity) then the leaf values (rounded up to
 * bytes). Full-zip rows store the same, minus the levels without validity.
 */
public record FslShape(long[] dims, boolean[] validity, int leafBits) {
  /** Nesting deeper than this is refused; Arrow schemas of real data stay far below. */
  public static final int MAX_LEVELS = 16;

  /** Bits of one row's values at most, as for the single-level lists before. */
  public static final long MAX_ROW_BITS = 1L << 27;

  public int levels() {
    return dims.length;
  }

  /** Children per row at level {@code level}. */
  public long items(int level) {
    long n = 1;
    for (int i = 0; i <= level; i++) {
      n *= dims[i];
    }
    return n;
  }

  public long leafItems() {
    return items(dims.length - 1);
  }

  public long validityBytes(int level) {
    return (items(level) + 7) / 8;
  }

  public long valueBytes() {
    return (leafItems() * leafBits + 7) / 8;
  }

  boolean anyValidity() {
    for (boolean v : validity) {
      if (v) {
        return true;
      }
    }
    return false;
  }

  /** True when rows are just the leaf values, byte-aligned: the plain single-buffer form. */
  boolean plain() {
    return !anyValidity() && leafBits > 0 && leafBits % 8 == 0;
  }

  /**
   * Booleans without validity at any level, a row a whole number of bytes: the full-zip rows
   * the reference writes for boolean lists (e.g. {@code FixedSizeList<Bool>[16]} forced to
   * full-zip), each row its bits LSB first.
   */
  boolean byteRowsOfBooleans() {
    return leafBits == 1 && !anyValidity() && leafItems() % 8 == 0;
  }

  /** Bytes of a decoded row: every level's validity, then the values. */
  public long rowBytes() {
    long b = valueBytes();
    for (int l = 0; l < dims.length; l++) {
      b += validityBytes(l);
    }
    return b;
  }

  /** Bytes of a stored full-zip row: the validity of the levels that have it, then the values. */
  long zippedRowBytes() {
    long b = valueBytes();
    for (int l = 0; l < dims.length; l++) {
      b += validity[l] ? validityBytes(l) : 0;
    }
    return b;
  }

  /** The same dimensions and leaf with every level carrying validity (the decoded form). */
  public FslShape full() {
    boolean[] all = new boolean[dims.length];
    java.util.Arrays.fill(all, true);
    return new FslShape(dims, all, leafBits);
  }

  /** {@code FixedSizeList{d0, FixedSizeList{d1, ... Flat{leaf bits}}}}, validity per level. */
  public CompressiveEncoding encoding() {
    CompressiveEncoding e = BuiltinCodecs.flat(leafBits);
    for (int l = dims.length - 1; l >= 0; l--) {
      e = CompressiveEncoding.newBuilder()
          .setFixedSizeList(io.lancecodec.format.pb.v21.FixedSizeList.newBuilder()
              .setItemsPerValue(dims[l]).setHasValidity(validity[l]).setValues(e))
          .build();
    }
    return e;
  }

  /** The 2.3 form of {@link #encoding()}: the same tree in {@code lance.encodings23} messages. */
  public io.lancecodec.format.pb.v23.CompressiveEncoding encoding23() {
    io.lancecodec.format.pb.v23.CompressiveEncoding e = Builtin23.flat(leafBits);
    for (int l = dims.length - 1; l >= 0; l--) {
      e = io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder()
          .setFixedSizeList(io.lancecodec.format.pb.v23.FixedSizeList.newBuilder()
              .setItemsPerValue(dims[l]).setHasValidity(validity[l]).setValues(e))
          .build();
    }
    return e;
  }

  /** The tree in the grammar of the file being written: 2.3's messages or 2.1's. */
  com.google.protobuf.Message encoding(boolean v23) {
    return v23 ? encoding23() : encoding();
  }

  /**
   * The shape a 2.3 encoding describes: fixed-size-list layers, each with a positive dimension
   * and a values child, down to a Flat leaf of 1 bit or whole bytes; every count checked as in
   * 2.1. Unlike 2.1, no Constant leaf: that is the reference's 2.1 zero-width row of lists whose
   * items are all null, which no 2.3 writer makes (such items are Flat values under validity).
   */
  static FslShape parse(io.lancecodec.format.pb.v23.FixedSizeList f) {
    FslLeaf.Layers layers = FslLeaf.layers(f);
    if (!layers.leaf().hasFlat()) {
      throw FslLeaf.unsupported(io.lancecodec.format.UnsignedBlockGrammar.caseName(layers.leaf()), "expected Flat here");
    }
    int bits = Builtin23.bitsOf(layers.leaf().getFlat());
    if (layers.items() * bits > MAX_ROW_BITS) {
      throw LanceCodecException.corrupt("fixed_size_list of " + layers.items() + " x " + bits + " bits per row");
    }
    return layers.shape(bits);
  }

  /** The shape a file's encoding describes, every count checked. */
  static FslShape parse(io.lancecodec.format.pb.v21.FixedSizeList f) {
    List<Long> dims = new ArrayList<>();
    List<Boolean> valid = new ArrayList<>();
    long product = 1;
    CompressiveEncoding values;
    while (true) {
      long d = f.getItemsPerValue();
      if (d <= 0 || d > MAX_ROW_BITS || dims.size() >= MAX_LEVELS) {
        throw LanceCodecException.corrupt("fixed_size_list of " + d + " items at depth " + dims.size());
      }
      product *= d;
      if (product > MAX_ROW_BITS) {
        throw LanceCodecException.corrupt("fixed_size_list of " + product + " items per row, over " + MAX_ROW_BITS);
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
    boolean allNull = values.hasConstant() && !values.getConstant().hasValue();
    if (!values.hasFlat() && !allNull) {
      // compressed leaves are a 2.3 capability: no 2.1/2.2 writer (ours or the reference's) makes them
      throw FslLeaf.unsupported(String.valueOf(values.getCompressionCase()), "a Lance 2.3 capability, not part of 2.1/2.2");
    }
    if (values.getFlat().hasData()) {
      throw LanceCodecException.unsupported("Flat with buffer compression is not supported yet (needs codec-general)");
    }
    int bits = allNull ? 0 : BuiltinCodecs.bitsOf(values.getFlat());
    if (product * bits > MAX_ROW_BITS) {
      throw LanceCodecException.corrupt("fixed_size_list of " + product + " x " + bits + " bits per row");
    }
    long[] d = new long[dims.size()];
    boolean[] v = new boolean[dims.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = dims.get(i);
      v[i] = valid.get(i);
    }
    return new FslShape(d, v, bits);
  }

  /**
   * A written page of fixed-size lists taken apart: the shape, each level's validity (null for a
   * level without), the leaf values and the row count; null when {@code block} is not a
   * fixed-size list over a fixed-width leaf.
   */
  record Parts(FslShape shape, byte[][] validity, byte[] values, long rows) {}

  static Parts parts(DataBlock block) {
    if (!(block instanceof DataBlock.FixedSizeList)) {
      return null;
    }
    List<Long> dims = new ArrayList<>();
    List<byte[]> valid = new ArrayList<>();
    DataBlock b = block;
    long product = 1;
    while (b instanceof DataBlock.FixedSizeList fsl) {
      if (fsl.dimension() <= 0 || dims.size() >= MAX_LEVELS) {
        return null;
      }
      product *= fsl.dimension();
      if (product > MAX_ROW_BITS) {
        return null;
      }
      dims.add(fsl.dimension());
      b = fsl.child();
      if (b instanceof DataBlock.Nullable nb) {
        valid.add(nb.validity());
        b = nb.data();
      } else {
        valid.add(null);
      }
    }
    if (!(b instanceof DataBlock.FixedWidth leaf) || product * leaf.bitsPerValue() > MAX_ROW_BITS) {
      return null;
    }
    long[] d = new long[dims.size()];
    boolean[] v = new boolean[dims.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = dims.get(i);
      v[i] = valid.get(i) != null;
    }
    return new Parts(new FslShape(d, v, leaf.bitsPerValue()), valid.toArray(new byte[0][]), leaf.data(),
        block.numValues());
  }
}
