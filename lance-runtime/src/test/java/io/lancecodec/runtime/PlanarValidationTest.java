package io.lancecodec.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.lancecodec.codec.bitpack.BitpackPlugin;
import io.lancecodec.format.pb.v23.ChunkedValues;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Constant;
import io.lancecodec.format.pb.v23.ConstantValue;
import io.lancecodec.format.pb.v23.DenseChunkLevels;
import io.lancecodec.format.pb.v23.DenseStructure;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.IndexedValues;
import io.lancecodec.format.pb.v23.NoValues;
import io.lancecodec.format.pb.v23.PlanarLayout;
import io.lancecodec.format.pb.v23.RepDefLayer;
import io.lancecodec.format.pb.v23.SparseFixedSizeListLayer;
import io.lancecodec.format.pb.v23.SparseListLayer;
import io.lancecodec.format.pb.v23.SparseStructuralLayer;
import io.lancecodec.format.pb.v23.SparseStructure;
import io.lancecodec.format.pb.v23.SparseValiditySet;
import io.lancecodec.format.pb.v23.StructuralPlane;
import io.lancecodec.format.pb.v23.Variable;
import io.lancecodec.format.pb.v23.ValuePlane;
import io.lancecodec.format.pb.v23.ZippedValues;
import io.lancecodec.layout.planar.PlanarLayoutPlugin;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.layout.EncodedPage;
import io.lancecodec.spi.layout.LayoutContext;
import io.lancecodec.spi.layout.LayoutPlugin;
import io.lancecodec.spi.layout.PageDecoder;
import io.lancecodec.spi.layout.PageDescription;
import io.lancecodec.spi.layout.PageInput;
import io.lancecodec.spi.layout.PageSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every rule of the spec's "Validation" paragraph broken on purpose: a writer whose planar layout
 * hands its pages to a tampering function writes each file, and our reader must refuse it with
 * one CORRUPT line (missing planes and variants, bad scalar widths, inconsistent buffer counts,
 * overflowing domain arithmetic, invalid validity meanings, unordered or out-of-range positions,
 * list counts that disagree with their child domain, zipped counts that disagree with the
 * structure, values where none may be, indices past their items, payload arity).
 */
class PlanarValidationTest extends WithAllocator {
  private static final int ROWS = 3000;

  /** The planar layout with every written page passed through {@code tamper}. */
  private record Tampering(UnaryOperator<EncodedPage> tamper) implements LayoutPlugin {
    private static final PlanarLayoutPlugin REAL = new PlanarLayoutPlugin();

    @Override
    public String name() {
      return "planar";
    }

    @Override
    public Set<FileVersion> fileVersions() {
      return REAL.fileVersions();
    }

    @Override
    public Set<Class<? extends Message>> pageEncodings() {
      return REAL.pageEncodings();
    }

    @Override
    public EncodedPage encode(PageInput page, LayoutContext ctx) {
      return tamper.apply(REAL.encode(page, ctx));
    }

    @Override
    public PageDecoder open(Message page, PageSource source, long numRows, LayoutContext ctx) {
      return REAL.open(page, source, numRows, ctx);
    }

    @Override
    public PageDescription describe(Message page, PageSource source, Decoders decoders) {
      return REAL.describe(page, source, decoders);
    }
  }

  /** A page with a new message and buffers. */
  private static EncodedPage with(EncodedPage p, PlanarLayout layout, List<byte[]> buffers) {
    return new EncodedPage(buffers, layout, p.numRows());
  }

  private static PlanarLayout planar(EncodedPage p) {
    return (PlanarLayout) p.layout();
  }

  private static CompressiveEncoding flat(int bits) {
    return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
  }

  private static byte[] u64(long... values) {
    byte[] b = new byte[values.length * 8];
    for (int i = 0; i < values.length; i++) {
      LittleEndian.putLong(b, i * 8, values[i]);
    }
    return b;
  }

  private static SparseValiditySet validity(SparseValiditySet.Meaning meaning, int count) {
    return SparseValiditySet.newBuilder().setMeaning(meaning).setNumPositions(count).setPositions(flat(64)).build();
  }

  private static final SparseValiditySet.Meaning NULLS = SparseValiditySet.Meaning.SPARSE_VALIDITY_NULL_POSITIONS;

  /** An all-valid validity set: no positions, the empty Constant, no payload. */
  private static SparseValiditySet allValid() {
    return SparseValiditySet.newBuilder().setMeaning(NULLS).setNumPositions(0)
        .setPositions(CompressiveEncoding.newBuilder().setConstant(Constant.getDefaultInstance())).build();
  }

  /** Sparse structure {@code layers} with {@code payloads} after the page's first {@code valueBuffers}. */
  private static EncodedPage sparse(EncodedPage p, int valueBuffers, List<SparseStructuralLayer> layers, byte[]... payloads) {
    List<byte[]> buffers = new ArrayList<>(p.buffers().subList(0, valueBuffers));
    buffers.addAll(List.of(payloads));
    PlanarLayout layout = planar(p).toBuilder()
        .setStructure(StructuralPlane.newBuilder().setSparse(SparseStructure.newBuilder().addAllLayers(layers))).build();
    return with(p, layout, buffers);
  }

  private static SparseStructuralLayer layer(SparseValiditySet v) {
    return SparseStructuralLayer.newBuilder().setValidity(v).build();
  }

  /** Writes int32 rows (every third null) through {@code tamper}; sparse structure forced, chunked values. */
  private Path write(String name, UnaryOperator<EncodedPage> tamper) {
    Path path = dir.resolve(name + ".lance");
    Map<String, String> sparse = Map.of("lance-encoding:structural-encoding", "sparse");
    Schema schema = new Schema(List.of(new Field("c", new FieldType(true, new ArrowType.Int(32, true), null, sparse), null)));
    CodecRegistry registry = CodecRegistry.of(List.of(new BitpackPlugin()), List.of(new Tampering(tamper)));
    try (LanceFileWriter w = LanceFileWriter.open(path, schema, WriterOptions.defaults().withVersion(FileVersion.V2_3).withRegistry(registry));
        VectorSchemaRoot b = VectorSchemaRoot.create(schema, allocator)) {
      IntVector v = (IntVector) b.getVector(0);
      v.allocateNew(ROWS);
      for (int i = 0; i < ROWS; i++) {
        if (i % 3 == 0) {
          v.setNull(i);
        } else {
          v.set(i, i * 7);
        }
      }
      v.setValueCount(ROWS);
      b.setRowCount(ROWS);
      w.write(b);
    }
    return path;
  }

  /** Opens and reads everything; the one error must be CORRUPT, on one line, naming {@code expect}. */
  private void assertCorrupt(Path path, String expect) {
    try (LanceFileReader r = LanceFileReader.open(path); VectorSchemaRoot all = r.readRange(0, r.numRows(), null, allocator)) {
      fail("read " + all.getRowCount() + " rows of a corrupt page (expected: " + expect + ")");
    } catch (LanceCodecException e) {
      assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
      assertTrue(e.getMessage().contains(expect), "'" + expect + "' not in: " + e.getMessage());
    }
  }

  @Test
  void untamperedFileReads() {
    Path path = write("ok", p -> p);
    try (LanceFileReader r = LanceFileReader.open(path); VectorSchemaRoot all = r.readRange(0, ROWS, null, allocator)) {
      for (int i = 0; i < ROWS; i++) {
        assertEquals(i % 3 == 0 ? null : i * 7, all.getVector(0).getObject(i));
      }
      assertTrue(r.columnSummaries().get(0).pages().get(0).toString().contains("sparse [validity(1000 null"),
          r.columnSummaries().get(0).pages().get(0).toString());
    }
  }

  static Stream<Arguments> rules() {
    int vb = 2; // chunked values: metadata and chunks
    List<Arguments> out = new ArrayList<>();
    out.add(Arguments.of("missing structural plane", "lacks its structural plane",
        (UnaryOperator<EncodedPage>) p -> with(p, planar(p).toBuilder().clearStructure().build(), p.buffers())));
    out.add(Arguments.of("missing value plane", "lacks its value plane",
        (UnaryOperator<EncodedPage>) p -> with(p, planar(p).toBuilder().clearValues().build(), p.buffers())));
    out.add(Arguments.of("structure without variant", "structural plane has no variant",
        (UnaryOperator<EncodedPage>) p -> with(p, planar(p).toBuilder().setStructure(StructuralPlane.getDefaultInstance()).build(), p.buffers())));
    out.add(Arguments.of("values without variant", "value plane has no variant",
        (UnaryOperator<EncodedPage>) p -> with(p, planar(p).toBuilder().setValues(ValuePlane.getDefaultInstance()).build(), p.buffers())));
    out.add(Arguments.of("layer without kind", "has no layer kind",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(SparseStructuralLayer.getDefaultInstance()))));
    out.add(Arguments.of("unspecified validity meaning", "validity meaning 0",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(layer(validity(SparseValiditySet.Meaning.SPARSE_VALIDITY_UNSPECIFIED, 2))), u64(0, 3))));
    out.add(Arguments.of("unordered positions", "does not follow",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(layer(validity(NULLS, 2))), u64(6, 3))));
    out.add(Arguments.of("repeated positions", "does not follow",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(layer(validity(NULLS, 2))), u64(3, 3))));
    out.add(Arguments.of("position past the domain", "is not below the domain",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(layer(validity(NULLS, 2))), u64(3, ROWS))));
    out.add(Arguments.of("position of 2^63", "is not below the domain",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(layer(validity(NULLS, 1))), u64(Long.MIN_VALUE))));
    out.add(Arguments.of("more positions than the domain", "positions in a domain of",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(layer(validity(NULLS, ROWS + 1))), u64(new long[ROWS + 1]))));
    out.add(Arguments.of("payload shorter than its count", "",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(layer(validity(NULLS, 3))), u64(0, 3))));
    out.add(Arguments.of("extra buffer", "consumed 3 of the page's 4 buffers",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(layer(validity(NULLS, 2))), u64(0, 3), u64(9))));
    out.add(Arguments.of("missing payload", "no buffer left for its payload",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(layer(validity(NULLS, 2))))));
    out.add(Arguments.of("payload for a metadata-only sequence", "consumed 2 of the page's 3 buffers",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(layer(allValid())), u64(1))));
    out.add(Arguments.of("fixed-size-list dimension 0", "dimension 0 is not positive",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(SparseStructuralLayer.newBuilder()
            .setFixedSizeList(SparseFixedSizeListLayer.newBuilder().setDimension(0).setValidity(allValid())).build()))));
    out.add(Arguments.of("fixed-size-list product overflows", "product of the fixed-size-list dimensions overflows",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(
            SparseStructuralLayer.newBuilder().setFixedSizeList(SparseFixedSizeListLayer.newBuilder().setDimension(1L << 40).setValidity(allValid())).build(),
            SparseStructuralLayer.newBuilder().setFixedSizeList(SparseFixedSizeListLayer.newBuilder().setDimension(1L << 40).setValidity(allValid())).build()))));
    out.add(Arguments.of("rows not a multiple of the dimension", "is not a multiple of the fixed-size-list dimensions' product 7",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(SparseStructuralLayer.newBuilder()
            .setFixedSizeList(SparseFixedSizeListLayer.newBuilder().setDimension(7).setValidity(allValid())).build()))));
    SparseListLayer.Builder list = SparseListLayer.newBuilder().setNonEmptyPositions(flat(64)).setCounts(flat(64)).setValidity(allValid());
    out.add(Arguments.of("counts past num_child_slots", "add up past num_child_slots",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(SparseStructuralLayer.newBuilder()
            .setList(list.clone().setNumNonEmptyPositions(2).setNumChildSlots(3)).build()), u64(0, 5), u64(2, 2))));
    out.add(Arguments.of("counts short of num_child_slots", "add up to 4, num_child_slots is 3000",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(SparseStructuralLayer.newBuilder()
            .setList(list.clone().setNumNonEmptyPositions(2).setNumChildSlots(ROWS)).build()), u64(0, 5), u64(2, 2))));
    out.add(Arguments.of("a zero count", "is not positive",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(SparseStructuralLayer.newBuilder()
            .setList(list.clone().setNumNonEmptyPositions(2).setNumChildSlots(2)).build()), u64(0, 5), u64(2, 0))));
    out.add(Arguments.of("a null non-empty list", "non-empty list position 5 is null",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(SparseStructuralLayer.newBuilder()
            .setList(list.clone().setNumNonEmptyPositions(2).setNumChildSlots(ROWS).setValidity(validity(NULLS, 1))).build()),
            u64(0, 5), u64(1, ROWS - 1), u64(5))));
    out.add(Arguments.of("list without counts", "without its non-empty positions, counts or validity",
        (UnaryOperator<EncodedPage>) p -> sparse(p, vb, List.of(SparseStructuralLayer.newBuilder()
            .setList(list.clone().clearCounts().setNumNonEmptyPositions(0)).build()))));
    out.add(Arguments.of("sparse chunked values with a level count", "sparse chunked values declare num_items",
        (UnaryOperator<EncodedPage>) p -> with(p, planar(p).toBuilder().setValues(ValuePlane.newBuilder()
            .setChunked(planar(p).getValues().getChunked().toBuilder().setNumItems(ROWS))).build(), p.buffers())));
    out.add(Arguments.of("sparse chunked values with dense levels", "chunked values have DenseChunkLevels with sparse structure",
        (UnaryOperator<EncodedPage>) p -> with(p, planar(p).toBuilder().setValues(ValuePlane.newBuilder()
            .setChunked(planar(p).getValues().getChunked().toBuilder().setLevels(DenseChunkLevels.getDefaultInstance()))).build(), p.buffers())));
    out.add(Arguments.of("dense chunked values without levels", "chunked values lack DenseChunkLevels with dense structure",
        (UnaryOperator<EncodedPage>) p -> with(p, planar(p).toBuilder().setStructure(StructuralPlane.newBuilder()
            .setDense(DenseStructure.newBuilder().addLayers(RepDefLayer.REPDEF_ALL_VALID_ITEM))).build(), p.buffers().subList(0, vb))));
    out.add(Arguments.of("dense constant under a nullable layer", "needs trivial all-valid layers",
        (UnaryOperator<EncodedPage>) p -> with(p, PlanarLayout.newBuilder()
            .setStructure(StructuralPlane.newBuilder().setDense(DenseStructure.newBuilder().addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM)))
            .setValues(ValuePlane.newBuilder().setConstant(ConstantValue.newBuilder().setValue(ByteString.copyFrom(new byte[4])))).build(), List.of())));
    for (int width : new int[] {0, 33}) {
      out.add(Arguments.of("constant of " + width + " bytes", "constant scalar of " + width + " bytes",
          (UnaryOperator<EncodedPage>) p -> with(p, PlanarLayout.newBuilder()
              .setStructure(StructuralPlane.newBuilder().setDense(DenseStructure.newBuilder().addLayers(RepDefLayer.REPDEF_ALL_VALID_ITEM)))
              .setValues(ValuePlane.newBuilder().setConstant(ConstantValue.newBuilder().setValue(ByteString.copyFrom(new byte[width])))).build(), List.of())));
    }
    out.add(Arguments.of("dense constant with a buffer", "a dense constant take 0 buffers, the page has 1",
        (UnaryOperator<EncodedPage>) p -> with(p, PlanarLayout.newBuilder()
            .setStructure(StructuralPlane.newBuilder().setDense(DenseStructure.newBuilder().addLayers(RepDefLayer.REPDEF_ALL_VALID_ITEM)))
            .setValues(ValuePlane.newBuilder().setConstant(ConstantValue.newBuilder().setValue(ByteString.copyFrom(new byte[4])))).build(),
            List.of(new byte[8]))));
    out.add(Arguments.of("dense none beyond a single null leaf", "single null leaf layer",
        (UnaryOperator<EncodedPage>) p -> with(p, PlanarLayout.newBuilder()
            .setStructure(StructuralPlane.newBuilder().setDense(DenseStructure.newBuilder().addLayers(RepDefLayer.REPDEF_ALL_VALID_ITEM)))
            .setValues(ValuePlane.newBuilder().setNone(NoValues.getDefaultInstance())).build(), List.of())));
    out.add(Arguments.of("indexed values with dense structure", "indexed values need sparse structure",
        (UnaryOperator<EncodedPage>) p -> with(p, PlanarLayout.newBuilder()
            .setStructure(StructuralPlane.newBuilder().setDense(DenseStructure.newBuilder().addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM)))
            .setValues(ValuePlane.newBuilder().setIndexed(IndexedValues.getDefaultInstance())).build(), List.of())));
    out.add(Arguments.of("no values where values are materialized", "a page without values has 2000 materialized positions",
        (UnaryOperator<EncodedPage>) p -> with(p, planar(p).toBuilder().setValues(ValuePlane.newBuilder().setNone(NoValues.getDefaultInstance())).build(),
            p.buffers().subList(vb, p.buffers().size()))));
    ZippedValues zipped = ZippedValues.newBuilder().setCompression(flat(32)).setBitsPerValue(32).setNumItems(5).setNumVisibleItems(5).build();
    out.add(Arguments.of("zipped count short of the materialized values", "zipped values hold 5 values, the structure materializes 2000",
        (UnaryOperator<EncodedPage>) p -> zipped(p, vb, zipped, new byte[20])));
    ZippedValues all = zipped.toBuilder().setNumItems(2000).setNumVisibleItems(2000).build();
    out.add(Arguments.of("zipped bytes past their count", "take 8000 bytes, the buffer has 8004",
        (UnaryOperator<EncodedPage>) p -> zipped(p, vb, all, new byte[8004])));
    out.add(Arguments.of("sparse zipped visible count differs", "visible of 2000 items, must be equal",
        (UnaryOperator<EncodedPage>) p -> zipped(p, vb, all.toBuilder().setNumVisibleItems(ROWS).build(), new byte[8000])));
    ZippedValues items = ZippedValues.newBuilder()
        .setCompression(CompressiveEncoding.newBuilder().setVariable(Variable.newBuilder().setOffsets(flat(32))))
        .setBitsPerOffset(32).setNumItems(2).setNumVisibleItems(2).build();
    out.add(Arguments.of("index past its items", "index 5 at slot 1 is not below the 2 items",
        (UnaryOperator<EncodedPage>) p -> indexed(p, vb, items, indices(ROWS, 1, 5))));
    out.add(Arguments.of("fixed-width indexed items", "indexed items must be variable-width",
        (UnaryOperator<EncodedPage>) p -> indexed(p, vb, zipped, indices(ROWS, 1, 0))));
    return out.stream();
  }

  private static byte[] indices(int n, int at, int value) {
    byte[] b = new byte[n * 4];
    LittleEndian.putInt(b, at * 4, value);
    return b;
  }

  /** The page's structure with its value plane replaced by zipped values in {@code data}. */
  private static EncodedPage zipped(EncodedPage p, int vb, ZippedValues z, byte[] data) {
    List<byte[]> buffers = new ArrayList<>();
    buffers.add(data);
    buffers.addAll(p.buffers().subList(vb, p.buffers().size()));
    return with(p, planar(p).toBuilder().setValues(ValuePlane.newBuilder().setZipped(z)).build(), buffers);
  }

  private static EncodedPage indexed(EncodedPage p, int vb, ZippedValues items, byte[] indices) {
    List<byte[]> buffers = new ArrayList<>();
    buffers.add(indices);
    buffers.add(new byte[16]);
    buffers.add(new byte[12]);
    buffers.addAll(p.buffers().subList(vb, p.buffers().size()));
    return with(p, planar(p).toBuilder().setValues(ValuePlane.newBuilder()
        .setIndexed(IndexedValues.newBuilder().setIndices(flat(32)).setItems(items))).build(), buffers);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void brokenRuleIsOneCorruptLine(String rule, String expect, UnaryOperator<EncodedPage> tamper) {
    assertCorrupt(write(rule.replace(' ', '-'), tamper), expect);
  }
}
