package io.lancecodec.layout.planar;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.ChunkedValues;
import io.lancecodec.format.pb.v23.IndexedValues;
import io.lancecodec.format.pb.v23.PlanarLayout;
import io.lancecodec.format.pb.v23.SparseStructuralLayer;
import io.lancecodec.format.pb.v23.ValuePlane;
import io.lancecodec.format.pb.v23.ZippedValues;
import io.lancecodec.layout.physical.FullZipPage;
import io.lancecodec.layout.physical.FullZipSpec;
import io.lancecodec.layout.physical.MiniBlockPageDecoder;
import io.lancecodec.layout.physical.MiniBlockSpec;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.layout.EncodedPage;
import io.lancecodec.spi.layout.LayoutContext;
import io.lancecodec.spi.layout.LayoutPlugin;
import io.lancecodec.spi.layout.LevelLayer;
import io.lancecodec.spi.layout.PageDecoder;
import io.lancecodec.spi.layout.PageDescription;
import io.lancecodec.spi.layout.PageInput;
import io.lancecodec.spi.layout.PageSource;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The Lance 2.3 planar layout: every page is a {@code PlanarLayout} of a structural plane (dense
 * repetition/definition layers, or sparse slot-domain layers) and a value plane (chunked, zipped,
 * indexed, constant or none), chosen independently ({@link PlanarWriter}). Dense chunked and
 * zipped values are the shared mini-block and full-zip grammars; docs/wire/planar.md describes
 * every byte.
 */
public final class PlanarLayoutPlugin implements LayoutPlugin {
  @Override
  public String name() {
    return "planar";
  }

  @Override
  public Set<FileVersion> fileVersions() {
    return EnumSet.of(FileVersion.V2_3);
  }

  @Override
  public Set<Class<? extends Message>> pageEncodings() {
    return Set.of(PlanarLayout.class);
  }

  @Override
  public EncodedPage encode(PageInput page, LayoutContext ctx) {
    return PlanarWriter.encode(page, ctx);
  }

  @Override
  public long rows(Message page, long storedRows) {
    PlanarLayout p = planar(page);
    if (!p.getStructure().hasSparse()) {
      return storedRows;
    }
    List<Long> dims = new ArrayList<>();
    for (SparseStructuralLayer l : p.getStructure().getSparse().getLayersList()) {
      if (l.hasFixedSizeList()) {
        dims.add(l.getFixedSizeList().getDimension());
      }
    }
    return SparseShape.rows(storedRows, dims);
  }

  @Override
  public PageDecoder open(Message page, PageSource source, long storedRows, LayoutContext ctx) {
    PlanarLayout p = planar(page);
    if (!p.hasStructure() || !p.hasValues()) {
      throw LanceCodecException.corrupt("planar: page lacks its " + (p.hasStructure() ? "value" : "structural") + " plane");
    }
    ValuePlane values = p.getValues();
    switch (p.getStructure().getCodecCase()) {
      case DENSE:
        return openDense(V23Grammar.layers(p.getStructure().getDense()), values, source, storedRows, ctx);
      case SPARSE:
        return openSparse(p, source, storedRows, ctx);
      default:
        throw LanceCodecException.corrupt("planar: structural plane has no variant set");
    }
  }

  private static PageDecoder openDense(List<LevelLayer> layers, ValuePlane values, PageSource source, long rows, LayoutContext ctx) {
    switch (values.getCodecCase()) {
      case CHUNKED:
        {
          MiniBlockSpec spec = V23Grammar.chunkedSpec(values.getChunked(), layers, 0);
          int expected = 2 + (spec.dictionary() != null ? 1 : 0) + (spec.repCompression() != null ? 1 : 0);
          buffers(source, expected, "dense chunked values");
          return new MiniBlockPageDecoder(spec, source, rows, ctx);
        }
      case ZIPPED:
        {
          FullZipSpec spec = V23Grammar.zippedSpec(values.getZipped(), layers);
          buffers(source, spec.bitsPerValue() >= 0 && spec.bitsRep() == 0 ? 1 : 2, "dense zipped values");
          return new FullZipPage.Decoder(spec, source, rows, ctx);
        }
      case CONSTANT:
        {
          for (LevelLayer l : layers) {
            if (l != LevelLayer.ALL_VALID_ITEM) {
              throw LanceCodecException.corrupt("planar: a dense constant needs trivial all-valid layers, not " + layers);
            }
          }
          buffers(source, 0, "a dense constant");
          return new DenseScalarDecoder(rows, scalar(values), layers);
        }
      case NONE:
        if (!layers.equals(List.of(LevelLayer.NULLABLE_ITEM))) {
          throw LanceCodecException.corrupt("planar: dense pages without values have a single null leaf layer, not " + layers);
        }
        buffers(source, 0, "a dense page without values");
        return new DenseScalarDecoder(rows, null, layers);
      case INDEXED:
        throw LanceCodecException.corrupt("planar: indexed values need sparse structure");
      default:
        throw LanceCodecException.corrupt("planar: value plane has no variant set");
    }
  }

  private static void buffers(PageSource source, int expected, String what) {
    if (source.numBuffers() != expected) {
      throw LanceCodecException.corrupt("planar: " + what + " take " + expected + " buffers, the page has " + source.numBuffers());
    }
  }

  /** The constant's scalar: 1 to 32 bytes. */
  private static byte[] scalar(ValuePlane values) {
    byte[] v = values.getConstant().getValue().toByteArray();
    if (v.length < 1 || v.length > 32) {
      throw LanceCodecException.corrupt("planar: constant scalar of " + v.length + " bytes, must be 1 to 32");
    }
    return v;
  }

  private static PageDecoder openSparse(PlanarLayout p, PageSource source, long storedRows, LayoutContext ctx) {
    ValuePlane values = p.getValues();
    int valueBuffers;
    switch (values.getCodecCase()) {
      case CHUNKED:
        valueBuffers = 2 + (values.getChunked().hasDictionary() ? 1 : 0);
        break;
      case ZIPPED:
        valueBuffers = values.getZipped().getAddressingCase() == ZippedValues.AddressingCase.BITS_PER_OFFSET ? 2 : 1;
        break;
      case INDEXED:
        valueBuffers = 3;
        break;
      case CONSTANT:
      case NONE:
        valueBuffers = 0;
        break;
      default:
        throw LanceCodecException.corrupt("planar: value plane has no variant set");
    }
    if (source.numBuffers() < valueBuffers) {
      throw LanceCodecException.corrupt("planar: " + values.getCodecCase() + " values take " + valueBuffers + " buffers, the page has " + source.numBuffers());
    }
    SparseShape shape = SparseCodec.decode(p.getStructure().getSparse(), source, valueBuffers, storedRows, ctx);
    PageSource own = new SourceSlice(source, 0, valueBuffers);
    long meta = p.getSerializedSize();
    switch (values.getCodecCase()) {
      case CHUNKED:
        {
          MiniBlockSpec spec = V23Grammar.chunkedSpec(values.getChunked(), null, shape.terminal);
          Materialized mat = new Materialized(shape.materialized(), shape.terminal);
          return new SparsePageDecoder(shape, SparsePageDecoder.chunked(new MiniBlockPageDecoder(spec, own, shape.terminal, ctx), mat), meta);
        }
      case ZIPPED:
        {
          FullZipSpec spec = V23Grammar.zippedSpec(values.getZipped(), null);
          Materialized mat = new Materialized(shape.materialized(), shape.terminal);
          if (spec.numItems() != mat.count) {
            throw LanceCodecException.corrupt("planar: zipped values hold " + spec.numItems() + " values, the structure materializes " + mat.count);
          }
          if (spec.bitsPerValue() >= 0 && own.bufferSize(0) != (long) spec.bitsPerValue() / 8 * spec.numItems()) {
            throw LanceCodecException.corrupt("planar: zipped values of " + spec.bitsPerValue() + " bits take " + spec.bitsPerValue() / 8 * spec.numItems()
                + " bytes, the buffer has " + own.bufferSize(0));
          }
          FullZipPage.Decoder zip = new FullZipPage.Decoder(spec, own, spec.numItems(), ctx);
          DataBlock empty = spec.bitsPerValue() > 0
              ? new DataBlock.FixedWidth(new byte[0], spec.bitsPerValue(), 0)
              : spec.bitsPerOffset() > 0 ? new DataBlock.VariableWidth(new byte[spec.bitsPerOffset() / 8], spec.bitsPerOffset(), new byte[0], 0) : null;
          return new SparsePageDecoder(shape, SparsePageDecoder.zipped(zip, mat, empty), meta);
        }
      case INDEXED:
        return new SparsePageDecoder(shape, indexed(values.getIndexed(), own, shape, ctx), meta);
      case CONSTANT:
        return new SparsePageDecoder(shape, SparsePageDecoder.constant(scalar(values)), meta);
      case NONE:
        {
          Materialized mat = new Materialized(shape.materialized(), shape.terminal);
          if (mat.count != 0) {
            throw LanceCodecException.corrupt("planar: a page without values has " + mat.count + " materialized positions");
          }
          return new SparsePageDecoder(shape, SparsePageDecoder.none(), meta);
        }
      default:
        throw new AssertionError(values.getCodecCase());
    }
  }

  private static SparsePageDecoder.Leaves indexed(IndexedValues v, PageSource own, SparseShape shape, LayoutContext ctx) {
    if (!v.hasIndices() || !v.hasItems()) {
      throw LanceCodecException.corrupt("planar: indexed values lack their indices or items");
    }
    FullZipSpec spec = V23Grammar.zippedSpec(v.getItems(), null);
    if (spec.bitsPerOffset() < 0) {
      throw LanceCodecException.corrupt("planar: indexed items must be variable-width (binary or string)");
    }
    long items = spec.numItems();
    BlockDecompressor dec = ctx.unsignedBlock(v.getIndices(), 32);
    byte[] payload = own.readAll(0);
    if (!dec.consumesPayload() && payload.length != 0) {
      throw LanceCodecException.corrupt("planar: metadata-only indices with a " + payload.length + "-byte buffer");
    }
    DataBlock b = dec.decompress(payload, shape.terminal);
    if (!(b instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() != 32 || fw.numValues() != shape.terminal) {
      throw LanceCodecException.corrupt("planar: indices did not decode to " + shape.terminal + " u32 values");
    }
    int[] indices = new int[shape.terminal];
    for (int i = 0; i < indices.length; i++) {
      long x = Integer.toUnsignedLong(LittleEndian.getInt(fw.data(), i * 4));
      if (x >= items) {
        throw LanceCodecException.corrupt("planar: index " + x + " at slot " + i + " is not below the " + items + " items");
      }
      indices[i] = (int) x;
    }
    FullZipPage.Decoder zip = new FullZipPage.Decoder(spec, new SourceSlice(own, 1, 2), items, ctx);
    return SparsePageDecoder.indexed(indices, zip, new Materialized(shape.materialized(), shape.terminal), spec.bitsPerOffset());
  }

  @Override
  public PageDescription describe(Message page, PageSource source, Decoders decoders) {
    return PlanarDescriptions.of(planar(page), decoders);
  }

  private static PlanarLayout planar(Message page) {
    if (!(page instanceof PlanarLayout p)) {
      throw LanceCodecException.internal("planar layout handed a " + page.getDescriptorForType().getFullName());
    }
    return p;
  }
}
