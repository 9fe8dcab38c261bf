package io.lancecodec.layout.planar;

import io.lancecodec.layout.physical.FullZipPage;
import io.lancecodec.layout.physical.LevelSink;
import io.lancecodec.layout.physical.MiniBlockPageDecoder;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.layout.DecodedPage;
import io.lancecodec.spi.layout.PageDecoder;
import java.util.Arrays;

/**
 * Reads a page with sparse structure. Opening it reads and validates every structural sequence
 * (the page's search cache); a read derives the rows' levels from the structure, maps the rows
 * to one contiguous range of leaf slots and asks the value plane only for those, so a selection of
 * null rows reads no value bytes.
 */
final class SparsePageDecoder implements PageDecoder {
  private final SparseShape shape;
  private final SparseLevels levels;
  private final Leaves leaves;
  private final long cacheBytes;

  SparsePageDecoder(SparseShape shape, Leaves leaves, long metadataBytes) {
    this.shape = shape;
    this.levels = new SparseLevels(shape);
    this.leaves = leaves;
    long structure = 0;
    for (SparseShape.Layer l : shape.layers) {
      structure += 4L * l.validity().positions().length + (l.nonEmpty() == null ? 0 : 8L * l.nonEmpty().length);
    }
    this.cacheBytes = metadataBytes + structure + leaves.cacheBytes();
  }

  @Override
  public long numRows() {
    return shape.rows;
  }

  @Override
  public long searchCacheBytes() {
    return cacheBytes;
  }

  @Override
  public DecodedPage read(long[] ranges) {
    long rows = 0;
    for (int i = 0; i < ranges.length; i += 2) {
      if (!(0 <= ranges[i] && ranges[i] <= ranges[i + 1] && ranges[i + 1] <= shape.rows)) {
        throw LanceCodecException.invalidArgument("rows [" + ranges[i] + ", " + ranges[i + 1] + ") of a page of " + shape.rows);
      }
      rows += ranges[i + 1] - ranges[i];
    }
    LevelSink sink = levels.hasLevels() ? new LevelSink(levels.maxRep > 0, levels.maxDef > 0, rows) : null;
    long[] valueRanges = new long[ranges.length];
    long[] leafRanges = new long[ranges.length];
    int k = 0;
    long leafTotal = 0;
    long d = shape.fslProduct;
    for (int i = 0; i < ranges.length; i += 2) {
      int a = (int) ranges[i];
      int b = (int) ranges[i + 1];
      if (sink != null) {
        levels.emit(a, b, sink);
      }
      valueRanges[i] = shape.valueSlot(a);
      valueRanges[i + 1] = shape.valueSlot(b);
      if (valueRanges[i + 1] > valueRanges[i]) {
        leafRanges[k++] = valueRanges[i] * d;
        leafRanges[k++] = valueRanges[i + 1] * d;
        leafTotal += (valueRanges[i + 1] - valueRanges[i]) * d;
      }
    }
    DataBlock leaf = leafTotal == 0 ? new DataBlock.AllNull(0) : leaves.read(Arrays.copyOf(leafRanges, k), LanceCodecException.checkedInt(leafTotal, "leaf slots"));
    DataBlock values = leafTotal == 0 ? leaf : Slots.fold(leaf, shape, valueRanges);
    return new DecodedPage(values, sink == null ? null : sink.rep(), sink == null ? null : sink.def(), rows, levels.decodedLayers());
  }

  /** A value plane's leaves: one per leaf slot of the ranges asked for, null slots included. */
  interface Leaves {
    /** Leaves of {@code ranges} (non-empty half-open pairs), {@code total} of them. */
    DataBlock read(long[] ranges, int total);

    default long cacheBytes() {
      return 0;
    }
  }

  /**
   * Chunked values: every leaf slot is stored, so leaf ranges are the chunk decoder's rows. Ranges
   * without a materialized slot are not read (the spec's "a null-only selection requires no value
   * I/O"): a selection of nulls only reads nothing, and with fixed-width leaves the null ranges of
   * a mixed selection are zeros spliced between the ranges read.
   */
  static Leaves chunked(MiniBlockPageDecoder chunks, Materialized mat) {
    return new Leaves() {
      /**
       * Set once a mixed read found leaves that are not byte-aligned fixed-width values (the
       * chunks' codec and dictionary decide it): from then on every range is read at once, so a
       * page reads its live ranges twice at most once. A race only repeats that first read.
       */
      private volatile boolean notSpliceable;

      @Override
      public DataBlock read(long[] ranges, int total) {
        long[] live = new long[ranges.length];
        int k = 0;
        for (int i = 0; i < ranges.length; i += 2) {
          if (mat.rank(ranges[i + 1]) > mat.rank(ranges[i])) {
            live[k++] = ranges[i];
            live[k++] = ranges[i + 1];
          }
        }
        if (k == 0) {
          return new DataBlock.AllNull(total);
        }
        if (k == ranges.length || notSpliceable) {
          return chunks.read(ranges).values();
        }
        DataBlock some = chunks.read(Arrays.copyOf(live, k)).values();
        if (!(some instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() % 8 != 0) {
          notSpliceable = true;
          return chunks.read(ranges).values();
        }
        int w = fw.bitsPerValue() / 8;
        byte[] out = new byte[LanceCodecException.checkedInt((long) total * w, "leaf bytes")];
        long at = 0;
        long from = 0;
        for (int i = 0, j = 0; i < ranges.length; i += 2) {
          long n = ranges[i + 1] - ranges[i];
          if (j < k && live[j] == ranges[i] && live[j + 1] == ranges[i + 1]) {
            System.arraycopy(fw.data(), (int) (from * w), out, (int) (at * w), (int) (n * w));
            from += n;
            j += 2;
          }
          at += n;
        }
        return new DataBlock.FixedWidth(out, fw.bitsPerValue(), total);
      }

      @Override
      public long cacheBytes() {
        return chunks.searchCacheBytes() + mat.bytes();
      }
    };
  }

  /** Zipped values: only materialized leaves are stored; their ranks address them. */
  static Leaves zipped(FullZipPage.Decoder zip, Materialized mat, DataBlock empty) {
    return new Leaves() {
      @Override
      public DataBlock read(long[] ranges, int total) {
        long[] stored = new long[ranges.length];
        int k = 0;
        for (int i = 0; i < ranges.length; i += 2) {
          int a = mat.rank(ranges[i]);
          int b = mat.rank(ranges[i + 1]);
          if (b > a) {
            stored[k++] = a;
            stored[k++] = b;
          }
        }
        if (k == 0) {
          // a selection of null slots: nothing to read
          return empty == null ? new DataBlock.AllNull(total) : Slots.scatter(empty, mat, ranges);
        }
        return Slots.scatter(zip.read(Arrays.copyOf(stored, k)).values(), mat, ranges);
      }

      @Override
      public long cacheBytes() {
        return mat.bytes() + zip.searchCacheBytes();
      }
    };
  }

  /** One scalar at every leaf slot (null slots included: nulls are structural). */
  static Leaves constant(byte[] scalar) {
    return (ranges, total) -> {
      int w = scalar.length;
      byte[] out = new byte[LanceCodecException.checkedInt((long) total * w, "constant values")];
      for (int i = 0; i < total; i++) {
        System.arraycopy(scalar, 0, out, i * w, w);
      }
      return new DataBlock.FixedWidth(out, w * 8, total);
    };
  }

  static Leaves none() {
    return (ranges, total) -> new DataBlock.AllNull(total);
  }

  /**
   * Indexed strings: an item index per leaf slot (validated once, when the page opens) and zipped
   * items, of which a read fetches each distinct item its materialized slots name, once.
   */
  static Leaves indexed(int[] indices, FullZipPage.Decoder items, Materialized mat, int bitsPerOffset) {
    return new Leaves() {
      @Override
      public DataBlock read(long[] ranges, int total) {
        int[] ids = new int[total];
        int n = 0;
        for (int i = 0; i < ranges.length; i += 2) {
          for (long t = ranges[i]; t < ranges[i + 1]; t++) {
            if (mat.isSet(t)) {
              ids[n++] = indices[(int) t];
            }
          }
        }
        int[] distinct = Arrays.copyOf(ids, n);
        Arrays.sort(distinct);
        int u = 0;
        for (int i = 0; i < n; i++) {
          if (u == 0 || distinct[u - 1] != distinct[i]) {
            distinct[u++] = distinct[i];
          }
        }
        distinct = Arrays.copyOf(distinct, u);
        int ow = bitsPerOffset / 8;
        DataBlock.VariableWidth fetched = null;
        if (u > 0) {
          long[] itemRanges = new long[2 * u];
          int k = 0;
          for (int i = 0; i < u; i++) {
            if (k > 0 && itemRanges[k - 1] == distinct[i]) {
              itemRanges[k - 1]++;
            } else {
              itemRanges[k++] = distinct[i];
              itemRanges[k++] = distinct[i] + 1L;
            }
          }
          DataBlock b = items.read(Arrays.copyOf(itemRanges, k)).values();
          if (!(b instanceof DataBlock.VariableWidth vw) || vw.numValues() != u) {
            throw LanceCodecException.corrupt("planar: indexed items did not decode to " + u + " variable-width values");
          }
          fetched = vw;
        }
        long bytes = 0;
        for (int i = 0; i < ranges.length; i += 2) {
          for (long t = ranges[i]; t < ranges[i + 1]; t++) {
            if (mat.isSet(t)) {
              int at = Arrays.binarySearch(distinct, indices[(int) t]);
              bytes += fetched.offset(at + 1) - fetched.offset(at);
            }
          }
        }
        byte[] data = new byte[LanceCodecException.checkedInt(bytes, "indexed value bytes")];
        byte[] offs = new byte[(total + 1) * ow];
        int o = 0;
        int pos = 0;
        for (int i = 0; i < ranges.length; i += 2) {
          for (long t = ranges[i]; t < ranges[i + 1]; t++) {
            if (mat.isSet(t)) {
              int at = Arrays.binarySearch(distinct, indices[(int) t]);
              int s = (int) fetched.offset(at);
              int len = (int) (fetched.offset(at + 1) - s);
              System.arraycopy(fetched.data(), s, data, pos, len);
              pos += len;
            }
            LittleEndian.putUnsigned(offs, ++o * ow, ow, pos);
          }
        }
        return new DataBlock.VariableWidth(offs, bitsPerOffset, data, total);
      }

      @Override
      public long cacheBytes() {
        return 4L * indices.length + mat.bytes() + items.searchCacheBytes();
      }
    };
  }
}
