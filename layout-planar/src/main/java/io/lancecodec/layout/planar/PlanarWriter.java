package io.lancecodec.layout.planar;

import io.lancecodec.format.pb.v23.ConstantValue;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.IndexedValues;
import io.lancecodec.format.pb.v23.NoValues;
import io.lancecodec.format.pb.v23.PlanarLayout;
import io.lancecodec.format.pb.v23.StructuralPlane;
import io.lancecodec.format.pb.v23.ValuePlane;
import io.lancecodec.layout.physical.DensePages;
import io.lancecodec.layout.physical.DictionaryEncoder;
import io.lancecodec.layout.physical.FullZipPage;
import io.lancecodec.layout.physical.FullZipSpec;
import io.lancecodec.layout.physical.Levels;
import io.lancecodec.layout.physical.MiniBlockPageEncoder;
import io.lancecodec.layout.physical.MiniBlockSpec;
import io.lancecodec.layout.physical.PageValues;
import io.lancecodec.layout.physical.PhysicalPage;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions.StructuralEncoding;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.layout.EncodedPage;
import io.lancecodec.spi.layout.LayoutContext;
import io.lancecodec.spi.layout.LevelLayer;
import io.lancecodec.spi.layout.PageInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The 2.3 writer's policy: the structure and value planes are chosen independently.
 *
 * <p>Structure is sparse for {@code structural-encoding=sparse} on a page with non-trivial
 * structure, for pages the dense mini-block grammar cannot hold (a chunk's levels past its u16
 * budget), complex constants (a constant under lists, structs or nulls), structural-only pages
 * (no valid value at all, apart from a flat all-null page) and mostly-null pages ({@link
 * #mostlyNull}) whose sparse form is not larger than their dense one; every other page is dense, which stores exactly what 2.2 would (the policy of
 * {@link DensePages}), so dense 2.3 is never larger than our 2.2.
 *
 * <p>Sparse values are none, a constant, indexed strings when a dictionary is smaller than the
 * strings themselves, zipped (only the materialized values) when the values are wide or most
 * leaf slots are null, and chunked (every leaf slot) otherwise; for narrow fixed-width values
 * with most slots null both zipped and chunked are built and the smaller kept (chunked wins when
 * a dictionary's indices run-length encode across the nulls).
 */
final class PlanarWriter {
  private PlanarWriter() {}

  static EncodedPage encode(PageInput page, LayoutContext ctx) {
    if (page.options().blob()) {
      throw LanceCodecException.unsupported("lance-encoding:blob: the v1 blob layout is not part of Lance 2.3 (and blob v2 is not"
          + " implemented); write blob columns with file version 2.1 or 2.2");
    }
    List<LevelLayer> layers = page.layers() == null ? V23Grammar.NO_LEVELS : page.layers();
    PageInput in = new PageInput(page.values(), page.repLevels(), page.defLevels(), layers, page.numRows(), page.options());
    boolean nested = Levels.nested(layers);
    short[] valueDef = nested ? PageValues.valueLevels(in) : in.defLevels();
    DataBlock values = in.values();
    long slots = values.numValues();
    long valid = values instanceof DataBlock.AllNull ? 0 : countValid(valueDef, slots);
    Optional<StructuralEncoding> forced = in.options().structuralEncoding();
    boolean wantSparse = forced.isPresent() && forced.get() == StructuralEncoding.SPARSE;
    boolean trivial = in.repLevels() == null && valid == slots && !hasInnerValidity(values) && !anyList(layers);

    if (valid == 0) {
      if (!nested && slots > 0 && !wantSparse) {
        return dense(in, ValuePlane.newBuilder().setNone(NoValues.getDefaultInstance()).build(), List.of(), List.of(LevelLayer.NULLABLE_ITEM));
      }
      return sparse(in, Plane.NONE, null, ctx);
    }
    byte[] scalar = scalar(values, valueDef);
    if (scalar != null) {
      if (trivial && !wantSparse) {
        // a trivial page's layers are all-valid items whatever the schema allows
        return dense(in, constantPlane(scalar), List.of(), java.util.Collections.nCopies(layers.size(), LevelLayer.ALL_VALID_ITEM));
      }
      return sparse(in, Plane.CONSTANT, scalar, ctx);
    }
    if (wantSparse && !trivial) {
      return sparse(in, null, null, ctx);
    }
    // under lists, null and empty lists have a level but no value slot: they count as null here
    long events = in.repLevels() != null ? in.repLevels().length : slots;
    EncodedPage dense = denseOrNull(in, ctx, layers);
    if (dense == null) {
      return sparse(in, null, null, ctx);
    }
    if (forced.isEmpty() && !in.options().chunkedCompression() && mostlyNull(valid, events, PageValues.maxValueBytes(values))) {
      // Sparse positions beat dense levels when the valid values are rare; when nulls and empty
      // lists are mixed at random their positions can cost more than compressed levels, and the
      // smaller page wins (structural-encoding=sparse forces the sparse form).
      EncodedPage sparse = sparse(in, null, null, ctx);
      return bytes(sparse) <= bytes(dense) ? sparse : dense;
    }
    return dense;
  }

  /** The dense page of the 2.2 policy, or null when its chunks cannot hold the page's levels. */
  private static EncodedPage denseOrNull(PageInput in, LayoutContext ctx, List<LevelLayer> layers) {
    try {
      return densePhysical(in, DensePages.encode(in, ctx), layers);
    } catch (LanceCodecException e) {
      if (!MiniBlockPageEncoder.exceedsLevelBudget(e)) {
        throw e;
      }
      return null;
    }
  }

  /** A page's bytes in the file: its buffers and its message. */
  private static long bytes(EncodedPage p) {
    long n = p.layout().getSerializedSize();
    for (byte[] b : p.buffers()) {
      n += b.length;
    }
    return n;
  }

  /**
   * Mostly null: at most one level in 8 a valid value, or at most half of them for values of 8
   * bytes or more, where a dense page's null slots (and levels) cost more than sparse positions.
   */
  static boolean mostlyNull(long valid, long slots, long widest) {
    return valid * 8 <= slots || (widest >= 8 && valid * 2 <= slots);
  }

  private static long countValid(short[] def, long slots) {
    if (def == null) {
      return slots;
    }
    long n = 0;
    for (short d : def) {
      n += d == 0 ? 1 : 0;
    }
    return n;
  }

  private static boolean anyList(List<LevelLayer> layers) {
    for (LevelLayer l : layers) {
      if (l.isList()) {
        return true;
      }
    }
    return false;
  }

  /** Validity inside the values: fixed-size-list items with nulls. */
  private static boolean hasInnerValidity(DataBlock b) {
    while (b instanceof DataBlock.FixedSizeList || b instanceof DataBlock.Nullable) {
      if (b instanceof DataBlock.Nullable) {
        return true;
      }
      b = ((DataBlock.FixedSizeList) b).child();
    }
    return false;
  }

  /** A constant's scalar: fixed-width values (booleans as one byte) of 1 to 32 bytes, all valid ones equal. */
  private static byte[] scalar(DataBlock values, short[] valueDef) {
    if (!(values instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() > 256) {
      return null;
    }
    return PageValues.constantValue(values, valueDef);
  }

  private static ValuePlane constantPlane(byte[] scalar) {
    return ValuePlane.newBuilder().setConstant(ConstantValue.newBuilder().setValue(com.google.protobuf.ByteString.copyFrom(scalar))).build();
  }

  private static EncodedPage dense(PageInput page, ValuePlane values, List<byte[]> buffers, List<LevelLayer> layers) {
    PlanarLayout layout =
        PlanarLayout.newBuilder()
            .setStructure(StructuralPlane.newBuilder().setDense(V23Grammar.dense(layers)))
            .setValues(values)
            .build();
    return new EncodedPage(buffers, layout, page.numRows());
  }

  @SuppressWarnings("unchecked")
  private static EncodedPage densePhysical(PageInput page, PhysicalPage<?> p, List<LevelLayer> layers) {
    ValuePlane.Builder values = ValuePlane.newBuilder();
    if (p.spec() instanceof MiniBlockSpec mb) {
      values.setChunked(V23Grammar.chunked(mb, true));
    } else {
      values.setZipped(V23Grammar.zipped((FullZipSpec) p.spec(), true));
    }
    return dense(page, values.build(), p.buffers(), layers);
  }

  enum Plane {
    NONE,
    CONSTANT,
    CHUNKED,
    ZIPPED,
    INDEXED
  }

  /** The page with sparse structure; {@code plane} null lets the values choose. */
  private static EncodedPage sparse(PageInput page, Plane plane, byte[] scalar, LayoutContext ctx) {
    SparseShape shape = SparseBuilder.shape(page);
    Materialized mat = new Materialized(shape.materialized(), shape.terminal);
    DataBlock leaf = SparseBuilder.leafValues(page.values());
    List<byte[]> buffers = new ArrayList<>();
    ValuePlane.Builder values = ValuePlane.newBuilder();
    DictionaryEncoder.Result dict = null;
    if (plane == null) {
      if (leaf instanceof DataBlock.VariableWidth) {
        dict = DictionaryEncoder.tryEncode(leaf, slotLevels(mat), page.options(), ctx.version());
        plane = dict != null && indexedBytes(dict, shape.terminal) < zippedBytes(leaf, mat) ? Plane.INDEXED : null;
      }
      if (plane == null && zipped(leaf, mat) && narrowFixed(leaf)) {
        // mostly null narrow values: the materialized values zipped, or every slot chunked, where
        // a dictionary's indices repeat across the nulls and run-length encode to a run per value
        EncodedPage zipped = sparse(page, Plane.ZIPPED, null, ctx);
        EncodedPage chunked = sparse(page, Plane.CHUNKED, null, ctx);
        return bytes(chunked) < bytes(zipped) ? chunked : zipped;
      }
      if (plane == null) {
        plane = zipped(leaf, mat) ? Plane.ZIPPED : Plane.CHUNKED;
        dict = null;
      }
    }
    switch (plane) {
      case NONE:
        values.setNone(NoValues.getDefaultInstance());
        break;
      case CONSTANT:
        values.setConstant(ConstantValue.newBuilder().setValue(com.google.protobuf.ByteString.copyFrom(scalar)));
        break;
      case CHUNKED:
        {
          DictionaryEncoder.Result d = DictionaryEncoder.tryEncode(leaf, slotLevels(mat), page.options(), ctx.version());
          PageInput in = new PageInput(leaf, null, null, V23Grammar.NO_LEVELS, shape.terminal, page.options());
          PhysicalPage<MiniBlockSpec> mb = MiniBlockPageEncoder.encode(in, ctx, d);
          buffers.addAll(mb.buffers());
          values.setChunked(V23Grammar.chunked(mb.spec(), false));
          break;
        }
      case ZIPPED:
        {
          DataBlock stored = Slots.gather(leaf, mat.bits, mat.count);
          PhysicalPage<FullZipSpec> fz = FullZipPage.encode(new PageInput(stored, null, null, V23Grammar.NO_LEVELS, mat.count, page.options()), ctx);
          buffers.addAll(fz.buffers());
          values.setZipped(V23Grammar.zipped(fz.spec(), false));
          break;
        }
      case INDEXED:
        {
          Encoded<byte[]> indices = ctx.compressUnsigned(u32(dict.indices()), page.options());
          // the indices' buffer is always there, empty when their encoding is metadata-only
          buffers.add(indices.data());
          PhysicalPage<FullZipSpec> items =
              FullZipPage.encode(new PageInput(dict.items(), null, null, V23Grammar.NO_LEVELS, dict.numItems(), page.options()), ctx);
          buffers.addAll(items.buffers());
          values.setIndexed(IndexedValues.newBuilder()
              .setIndices((CompressiveEncoding) indices.encoding())
              .setItems(V23Grammar.zipped(items.spec(), false)));
          break;
        }
      default:
        throw new AssertionError(plane);
    }
    PlanarLayout layout =
        PlanarLayout.newBuilder()
            .setStructure(StructuralPlane.newBuilder().setSparse(SparseCodec.encode(shape, ctx, page.options(), buffers)))
            .setValues(values)
            .build();
    // the page's stored row count is in the units of the domain inside every fixed-size list
    return new EncodedPage(buffers, layout, Math.multiplyExact(page.numRows(), shape.fslProduct));
  }

  /** Zipped when the values are wide or most leaf slots are null; booleans always chunk (zipped values are whole bytes). */
  private static boolean zipped(DataBlock leaf, Materialized mat) {
    if (leaf instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() == 1) {
      return false;
    }
    if (leaf instanceof DataBlock.Struct st) {
      return st.children().stream().anyMatch(c -> c instanceof DataBlock.VariableWidth);
    }
    return PageValues.maxValueBytes(leaf) >= DensePages.FULL_ZIP_MIN_BYTES || (long) mat.count * 2 <= mat.terminal;
  }

  /** Fixed-width values narrower than zipping's threshold, whole bytes (booleans always chunk). */
  private static boolean narrowFixed(DataBlock leaf) {
    return leaf instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() % 8 == 0
        && fw.bitsPerValue() / 8 < DensePages.FULL_ZIP_MIN_BYTES;
  }

  /** One level per leaf slot: 0 where a value is materialized, 1 elsewhere. */
  private static short[] slotLevels(Materialized mat) {
    short[] def = new short[mat.terminal];
    for (int t = 0; t < mat.terminal; t++) {
      def[t] = (short) (mat.isSet(t) ? 0 : 1);
    }
    return def;
  }

  /** Zipped strings: each materialized value with its u32 length prefix, and the byte index. */
  private static long zippedBytes(DataBlock leaf, Materialized mat) {
    DataBlock.VariableWidth vw = (DataBlock.VariableWidth) leaf;
    long bytes = 0;
    for (int t = 0; t < mat.terminal; t++) {
      if (mat.isSet(t)) {
        bytes += vw.offset(t + 1) - vw.offset(t) + 4 + 4;
      }
    }
    return bytes;
  }

  /** Indexed strings: a bit-packed index per leaf slot, and each item zipped once. */
  private static long indexedBytes(DictionaryEncoder.Result dict, long terminal) {
    DataBlock.VariableWidth items = (DataBlock.VariableWidth) dict.items();
    int bits = 64 - Long.numberOfLeadingZeros(Math.max(1, dict.numItems() - 1));
    return (terminal * bits + 7) / 8 + items.offset(dict.numItems()) - items.offset(0) + 8L * dict.numItems();
  }

  /** Dictionary indices as u32 (they are below the item count). */
  private static DataBlock.FixedWidth u32(DataBlock.FixedWidth indices) {
    if (indices.bitsPerValue() == 32) {
      return indices;
    }
    int n = (int) indices.numValues();
    byte[] out = new byte[n * 4];
    for (int i = 0; i < n; i++) {
      LittleEndian.putInt(out, i * 4, (int) LittleEndian.getUnsigned(indices.data(), i * (indices.bitsPerValue() / 8), indices.bitsPerValue() / 8));
    }
    return new DataBlock.FixedWidth(out, 32, n);
  }
}
