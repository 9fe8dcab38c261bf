package io.lancecodec.layout.planar;

import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.SparseFixedSizeListLayer;
import io.lancecodec.format.pb.v23.SparseListLayer;
import io.lancecodec.format.pb.v23.SparseStructuralLayer;
import io.lancecodec.format.pb.v23.SparseStructure;
import io.lancecodec.format.pb.v23.SparseValiditySet;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.layout.LayoutContext;
import io.lancecodec.spi.layout.PageSource;
import java.util.ArrayList;
import java.util.List;

/**
 * Sparse structure to and from its message and structural buffers. Every sequence (validity
 * positions, list positions and counts) is a generic unsigned block of u64 values with an inline
 * descriptor; its payload, when its codec has one, is the next structural buffer, in outer-to-inner
 * layer order and, within a list layer, non-empty positions, counts, then validity positions.
 */
final class SparseCodec {
  private SparseCodec() {}

  static SparseStructure encode(SparseShape shape, LayoutContext ctx, FieldOptions options, List<byte[]> buffers) {
    SparseStructure.Builder out = SparseStructure.newBuilder();
    for (SparseShape.Layer l : shape.layers) {
      SparseStructuralLayer.Builder layer = SparseStructuralLayer.newBuilder();
      switch (l.kind()) {
        case VALIDITY:
          layer.setValidity(validity(l.validity(), ctx, options, buffers));
          break;
        case LIST:
          {
            SparseListLayer.Builder list =
                SparseListLayer.newBuilder().setNumChildSlots(l.childSize()).setNumNonEmptyPositions(l.nonEmpty().length);
            list.setNonEmptyPositions(sequence(l.nonEmpty(), ctx, options, buffers));
            int[] counts = new int[l.nonEmpty().length];
            for (int k = 0; k < counts.length; k++) {
              counts[k] = l.childStarts()[k + 1] - l.childStarts()[k];
            }
            list.setCounts(sequence(counts, ctx, options, buffers));
            list.setValidity(validity(l.validity(), ctx, options, buffers));
            layer.setList(list);
            break;
          }
        case FIXED_SIZE_LIST:
          layer.setFixedSizeList(
              SparseFixedSizeListLayer.newBuilder().setDimension(l.dimension()).setValidity(validity(l.validity(), ctx, options, buffers)));
          break;
        default:
          throw new AssertionError(l.kind());
      }
      out.addLayers(layer);
    }
    return out.build();
  }

  private static SparseValiditySet validity(Validity v, LayoutContext ctx, FieldOptions options, List<byte[]> buffers) {
    return SparseValiditySet.newBuilder()
        .setMeaning(v.storesNulls() ? SparseValiditySet.Meaning.SPARSE_VALIDITY_NULL_POSITIONS : SparseValiditySet.Meaning.SPARSE_VALIDITY_VALID_POSITIONS)
        .setNumPositions(v.positions().length)
        .setPositions(sequence(v.positions(), ctx, options, buffers))
        .build();
  }

  private static CompressiveEncoding sequence(int[] values, LayoutContext ctx, FieldOptions options, List<byte[]> buffers) {
    byte[] raw = new byte[values.length * 8];
    for (int i = 0; i < values.length; i++) {
      LittleEndian.putLong(raw, i * 8, values[i]);
    }
    Encoded<byte[]> enc = ctx.compressUnsigned(new DataBlock.FixedWidth(raw, 64, values.length), options);
    if (enc.data().length > 0) {
      buffers.add(enc.data());
    }
    return (CompressiveEncoding) enc.encoding();
  }

  /**
   * The validated structure of a page whose metadata stores {@code storedRows}, its sequences read
   * from buffers {@code [firstBuffer, source.numBuffers())}, which they must consume exactly.
   */
  static SparseShape decode(SparseStructure s, PageSource source, int firstBuffer, long storedRows, LayoutContext ctx) {
    Reader r = new Reader(source, firstBuffer, ctx);
    long rows = SparseShape.rows(storedRows, dimensions(s));
    int size = domain(rows, "rows");
    List<SparseShape.Layer> layers = new ArrayList<>(s.getLayersCount());
    for (int i = 0; i < s.getLayersCount(); i++) {
      SparseStructuralLayer l = s.getLayers(i);
      String where = "planar: sparse layer " + i;
      switch (l.getLayerCase()) {
        case VALIDITY:
          layers.add(SparseShape.Layer.validity(size, r.validity(l.getValidity(), size, where)));
          break;
        case LIST:
          {
            SparseListLayer list = l.getList();
            if (!list.hasNonEmptyPositions() || !list.hasCounts() || !list.hasValidity()) {
              throw LanceCodecException.corrupt(where + ": list layer without its non-empty positions, counts or validity");
            }
            int n = domain(list.getNumNonEmptyPositions(), "non-empty positions");
            int[] nonEmpty = r.positions(list.getNonEmptyPositions(), n, size, where + " non-empty positions");
            int[] counts = r.sequence(list.getCounts(), n, where + " counts");
            int children = domain(list.getNumChildSlots(), "child slots");
            int[] starts = new int[n + 1];
            long sum = 0;
            for (int k = 0; k < n; k++) {
              long c = Integer.toUnsignedLong(counts[k]);
              if (counts[k] <= 0) {
                throw LanceCodecException.corrupt(where + ": list count " + c + " at position " + nonEmpty[k] + " is not positive");
              }
              sum += c;
              if (sum > children) {
                throw LanceCodecException.corrupt(where + ": list counts add up past num_child_slots " + children);
              }
              starts[k + 1] = (int) sum;
            }
            if (sum != children) {
              throw LanceCodecException.corrupt(where + ": list counts add up to " + sum + ", num_child_slots is " + children);
            }
            Validity v = r.validity(list.getValidity(), size, where);
            for (int p : nonEmpty) {
              if (v.isNull(p)) {
                throw LanceCodecException.corrupt(where + ": non-empty list position " + p + " is null");
              }
            }
            layers.add(new SparseShape.Layer(SparseShape.Kind.LIST, size, children, v, nonEmpty, starts, 0));
            size = children;
            break;
          }
        case FIXED_SIZE_LIST:
          {
            SparseFixedSizeListLayer f = l.getFixedSizeList();
            if (!f.hasValidity()) {
              throw LanceCodecException.corrupt(where + ": fixed-size-list layer without validity");
            }
            int d = domain(f.getDimension(), "fixed-size-list dimension");
            int child = domain((long) size * d, "fixed-size-list children");
            layers.add(new SparseShape.Layer(SparseShape.Kind.FIXED_SIZE_LIST, size, child, r.validity(f.getValidity(), size, where), null, null, d));
            size = child;
            break;
          }
        default:
          throw LanceCodecException.corrupt(where + " has no layer kind set");
      }
    }
    r.finish();
    return new SparseShape(layers, (int) rows);
  }

  private static List<Long> dimensions(SparseStructure s) {
    List<Long> out = new ArrayList<>();
    for (SparseStructuralLayer l : s.getLayersList()) {
      if (l.hasFixedSizeList()) {
        out.add(l.getFixedSizeList().getDimension());
      }
    }
    return out;
  }

  /**
   * Most slots of any sparse domain this reader opens: opening a sparse page materializes one bit
   * per slot (32 MiB at the limit) however few bytes the page has, so a tiny hostile page must not
   * claim billions. Writers flush a page at a few MiB of buffered data, far below this.
   */
  static final int MAX_DOMAIN = 1 << 28;

  /** A domain size or count this reader can hold: up to {@link #MAX_DOMAIN}. */
  static int domain(long v, String what) {
    if (v < 0 || v > MAX_DOMAIN) {
      throw LanceCodecException.unsupported("planar: " + what + " " + Long.toUnsignedString(v) + " exceed what one sparse page may hold here (2^28)");
    }
    return (int) v;
  }

  /** Reads the structural sequences in order, each taking the next buffer when its codec has a payload. */
  private static final class Reader {
    private final PageSource source;
    private final LayoutContext ctx;
    private int next;

    Reader(PageSource source, int firstBuffer, LayoutContext ctx) {
      this.source = source;
      this.ctx = ctx;
      this.next = firstBuffer;
    }

    Validity validity(SparseValiditySet v, int size, String where) {
      boolean nulls;
      switch (v.getMeaning()) {
        case SPARSE_VALIDITY_NULL_POSITIONS:
          nulls = true;
          break;
        case SPARSE_VALIDITY_VALID_POSITIONS:
          nulls = false;
          break;
        default:
          throw LanceCodecException.corrupt(where + ": validity meaning " + v.getMeaningValue() + " is not NULL_POSITIONS or VALID_POSITIONS");
      }
      if (!v.hasPositions()) {
        throw LanceCodecException.corrupt(where + ": validity without a positions descriptor");
      }
      int n = domain(v.getNumPositions(), "validity positions");
      return new Validity(nulls, positions(v.getPositions(), n, size, where + " validity positions"));
    }

    /** Strictly increasing positions below {@code size}. */
    int[] positions(CompressiveEncoding e, int n, int size, String where) {
      if (n > size) {
        throw LanceCodecException.corrupt(where + ": " + n + " positions in a domain of " + size);
      }
      int[] p = sequence(e, n, where);
      long prev = -1;
      for (int i = 0; i < n; i++) {
        long v = Integer.toUnsignedLong(p[i]);
        if (p[i] < 0 || v >= size || v <= prev) {
          throw LanceCodecException.corrupt(where + ": position " + (p[i] < 0 ? "2^31 or more" : String.valueOf(v)) + " at " + i
              + (v >= size ? " is not below the domain's " + size : " does not follow " + prev));
        }
        prev = v;
      }
      return p;
    }

    /** {@code n} u64 values, each below 2^31 (positions and counts in a page's domains). */
    int[] sequence(CompressiveEncoding e, int n, String where) {
      BlockDecompressor dec = ctx.unsignedBlock(e, 64);
      byte[] payload;
      if (dec.consumesPayload()) {
        if (next >= source.numBuffers()) {
          throw LanceCodecException.corrupt(where + ": no buffer left for its payload (page has " + source.numBuffers() + ")");
        }
        payload = source.readAll(next++);
      } else {
        payload = new byte[0];
      }
      DataBlock b = dec.decompress(payload, n);
      if (!(b instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() != 64 || fw.numValues() != n) {
        throw LanceCodecException.corrupt(where + ": did not decode to " + n + " u64 values");
      }
      int[] out = new int[n];
      byte[] d = fw.data();
      for (int i = 0; i < n; i++) {
        long v = LittleEndian.getLong(d, i * 8);
        // values of 2^31 and more are past every domain; keep them negative for the callers' checks
        out[i] = v < 0 || v > Integer.MAX_VALUE ? -1 : (int) v;
      }
      return out;
    }

    void finish() {
      if (next != source.numBuffers()) {
        throw LanceCodecException.corrupt("planar: the structure consumed " + next + " of the page's " + source.numBuffers() + " buffers");
      }
    }
  }
}
