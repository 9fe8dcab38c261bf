package io.lancecodec.codec.general;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.runtime.plugin.Plugins;
import io.lancecodec.runtime.plugin.RuntimeLayoutContext;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * General compression per value over fixed-size-list rows (2.3): every candidate round-trips
 * through the registry's decoders at every width and depth, the writer's offer (which candidates,
 * when unasked, when declined), null rows as empty frames, and damaged frames and trees.
 */
@Timeout(300)
class GeneralRowsTest {
  static final Plugins REGISTRY = Plugins.discover(GeneralRowsTest.class.getClassLoader());
  static final RuntimeLayoutContext CTX = new RuntimeLayoutContext(REGISTRY, FileVersion.V2_3, b -> 0L);

  /** A page of {@code rows} tensors of {@code dims} over the leaf bytes, as the writer hands it over. */
  static DataBlock tensors(long[] dims, int bits, byte[] leaf, long rows) {
    long count = rows;
    for (long d : dims) {
      count *= d;
    }
    DataBlock b = new DataBlock.FixedWidth(leaf, bits, count);
    for (int l = dims.length - 1; l >= 0; l--) {
      count /= dims[l];
      b = new DataBlock.FixedSizeList(b, dims[l], count);
    }
    return b;
  }

  /**
   * Tensors whose neighbours along a random axis differ by a little, with a random start per
   * tensor; or plain noise. Both wrap freely at narrow widths.
   */
  static byte[] leaf(Random rnd, long[] dims, int bits, int rows, boolean smooth) {
    int e = (int) Arrays.stream(dims).reduce(1, (a, b) -> a * b);
    int w = bits / 8;
    byte[] d = new byte[rows * e * w];
    if (!smooth) {
      rnd.nextBytes(d);
      return d;
    }
    for (int r = 0; r < rows; r++) {
      long v = rnd.nextLong();
      for (int i = 0; i < e; i++) {
        v += rnd.nextInt(7) - 3;
        LittleEndian.putUnsigned(d, (r * e + i) * w, w, bits == 64 ? v : v & ((1L << bits) - 1));
      }
    }
    return d;
  }

  static FieldOptions options(String scheme, FieldOptions.NumberKind kind) {
    FieldOptions.Builder b = FieldOptions.builder().numberKind(kind);
    if (scheme != null) {
      b.compression(scheme);
    }
    return b.build();
  }

  static byte[] rows(DataBlock b) {
    DataBlock.FixedWidth fw = (DataBlock.FixedWidth) b;
    return Arrays.copyOf(fw.data(), fw.usedBytes());
  }

  /** Every candidate (plain, each axis) with lz4 and zstd, random shapes of 1 to 3 levels and dimensions 1 to 64, every width. */
  @Test
  void everyCandidateRoundTrips() {
    Random rnd = new Random(20);
    int cases = 0;
    for (int k = 0; k < 48; k++) {
      int bits = 8 << (k % 4);
      long[] dims;
      do {
        dims = new long[1 + rnd.nextInt(3)];
        for (int l = 0; l < dims.length; l++) {
          dims[l] = 1 + rnd.nextInt(64);
        }
      } while (Arrays.stream(dims).reduce(1, (a, b) -> a * b) * bits / 8 > 64 * 1024);
      int n = 1 + rnd.nextInt(24);
      byte[] leaf = leaf(rnd, dims, bits, n, k % 3 != 2);
      DataBlock block = tensors(dims, bits, leaf, n);
      AxisDelta.Shape shape = AxisDelta.shapeOf(block);
      assertEquals(bits, shape.bits());
      List<int[]> candidates = new ArrayList<>(GeneralRows.axes(shape));
      candidates.add(new int[] {0, 0});
      for (Scheme s : List.of(Scheme.LZ4, Scheme.ZSTD)) {
        OptionalInt level = s == Scheme.ZSTD ? OptionalInt.of(1 + k % 5) : OptionalInt.empty();
        for (int[] c : candidates) {
          GeneralRows.Compressor comp = new GeneralRows.Compressor(s.codec(level), s.describe23(level), shape, c[0], c[1], null);
          Encoded<DataBlock> enc = comp.compress(block);
          DataBlock.VariableWidth frames = (DataBlock.VariableWidth) enc.data();
          assertEquals(n, frames.numValues());
          PerValueDecompressor d = CTX.perValue(enc.encoding());
          String what = s + " " + Arrays.toString(dims) + " x " + bits + " candidate " + Arrays.toString(c);
          DataBlock.FixedWidth out = (DataBlock.FixedWidth) d.decompress(frames, null);
          assertEquals(shape.rowBits(), out.bitsPerValue(), what);
          assertEquals(n, out.numValues(), what);
          assertArrayEquals(Arrays.copyOf(leaf, n * shape.rowBytes()), rows(out), what);
          DecodeBuffers reuse = new DecodeBuffers();
          assertArrayEquals(Arrays.copyOf(leaf, n * shape.rowBytes()), rows(d.decompress(frames, reuse)), what);
          assertArrayEquals(Arrays.copyOf(leaf, n * shape.rowBytes()), rows(d.decompress(frames, reuse)), what + " (again)");
          String tree = CTX.describe(enc.encoding()).toString();
          assertTrue(c[0] == 0 ? !tree.contains("axis_delta") : tree.contains("axis_delta(" + c[0] + ", " + c[1] + ", "), tree);
          cases++;
        }
      }
    }
    assertTrue(cases > 250, "cases: " + cases);
  }

  @Test
  void axisChoices() {
    // along 3 (stride 20), along 4 (stride 5), along 5 (stride 1), the whole 60
    assertEquals("[3, 20][4, 5][5, 1][60, 1]", axes(3, 4, 5));
    // length-1 axes and repeats left out
    assertEquals("[7, 1]", axes(1, 7));
    assertEquals("[7, 1]", axes(7));
    assertEquals("", axes(1, 1));
  }

  static String axes(long... dims) {
    return GeneralRows.axes(new AxisDelta.Shape(dims, 8)).stream().map(Arrays::toString).reduce("", String::concat);
  }

  /** Smooth integer tensors asked for zstd: axis delta wins, the size is the frames and their lengths, and it decodes. */
  @Test
  void offerPicksAxisDeltaForSmoothIntegers() {
    Random rnd = new Random(21);
    long[] dims = {16, 64};
    int n = 40;
    byte[] leaf = leaf(rnd, dims, 32, n, true);
    DataBlock block = tensors(dims, 32, leaf, n);
    Proposal<Encoded<DataBlock>> p = new GeneralPlugin()
        .proposePerValue(block, new Ctx(options("zstd", FieldOptions.NumberKind.SIGNED_INTEGER), Optional.empty())).orElseThrow();
    Encoded<DataBlock> r = p.result();
    String tree = CTX.describe(r.encoding()).toString();
    assertEquals("general-zstd-axis-delta", p.codec());
    assertTrue(tree.startsWith("general(zstd 0, axis_delta("), tree);
    DataBlock.VariableWidth frames = (DataBlock.VariableWidth) r.data();
    assertEquals(frames.data().length + 4L * n, p.estimatedBytes());
    assertTrue(p.estimatedBytes() < leaf.length / 2, "smooth rows shrink: " + p.estimatedBytes());
    assertArrayEquals(leaf, rows(CTX.perValue(r.encoding()).decompress(frames, null)));
    // the compressor the offer carries makes the same of another page of the same shape
    byte[] other = leaf(rnd, dims, 32, 5, true);
    Encoded<DataBlock> again = p.compressor().compress(tensors(dims, 32, other, 5));
    assertEquals(r.encoding(), again.encoding());
    assertArrayEquals(other, rows(CTX.perValue(again.encoding()).decompress(again.data(), null)));
    // a page of another shape is a writer bug, not data
    LanceCodecException x = assertThrows(LanceCodecException.class,
        () -> p.compressor().compress(tensors(new long[] {64, 16}, 32, other, 5)));
    assertEquals(LanceCodecException.Kind.INTERNAL, x.kind());
    // floats (and leaves of unknown kind) are never differenced: the same bits framed as they are
    for (FieldOptions.NumberKind kind : List.of(FieldOptions.NumberKind.FLOAT, FieldOptions.NumberKind.OTHER)) {
      Proposal<Encoded<DataBlock>> f = new GeneralPlugin().proposePerValue(block, new Ctx(options("zstd", kind), Optional.empty())).orElseThrow();
      assertEquals("general(zstd 0, fixed_size_list(16, fixed_size_list(64, flat(32))))", CTX.describe(f.result().encoding()).toString());
      assertTrue(f.estimatedBytes() > p.estimatedBytes());
    }
    // lz4 asked stays lz4. Without an entropy coder it gains nothing from small random steps (no
    // four-byte repeats), so the plain rows win there; on ramps every difference repeats.
    Proposal<Encoded<DataBlock>> l = new GeneralPlugin()
        .proposePerValue(block, new Ctx(options("lz4", FieldOptions.NumberKind.UNSIGNED_INTEGER), Optional.empty())).orElseThrow();
    assertEquals("general(lz4, fixed_size_list(16, fixed_size_list(64, flat(32))))", CTX.describe(l.result().encoding()).toString());
    assertArrayEquals(leaf, rows(CTX.perValue(l.result().encoding()).decompress(l.result().data(), null)));
    byte[] ramps = new byte[leaf.length];
    for (int row = 0; row < n; row++) {
      int start = rnd.nextInt();
      int slope = 1 + rnd.nextInt(1000);
      for (int i = 0; i < 16 * 64; i++) {
        LittleEndian.putInt(ramps, 4 * (row * 16 * 64 + i), start + slope * i);
      }
    }
    Proposal<Encoded<DataBlock>> lr = new GeneralPlugin()
        .proposePerValue(tensors(dims, 32, ramps, n), new Ctx(options("lz4", FieldOptions.NumberKind.UNSIGNED_INTEGER), Optional.empty()))
        .orElseThrow();
    assertTrue(CTX.describe(lr.result().encoding()).toString().startsWith("general(lz4, axis_delta("),
        CTX.describe(lr.result().encoding()).toString());
    assertArrayEquals(ramps, rows(CTX.perValue(lr.result().encoding()).decompress(lr.result().data(), null)));
  }

  /** Through the registry, as a full-zip page asks: the general offer beats the plain rows only when asked or when rows pass 32 KiB. */
  @Test
  void whenTheOfferIsMade() {
    Random rnd = new Random(22);
    FieldOptions.NumberKind i = FieldOptions.NumberKind.SIGNED_INTEGER;
    long[] small = {8, 32};
    DataBlock page = tensors(small, 32, leaf(rnd, small, 32, 40, true), 40); // 1 KiB rows, 40 KiB
    assertTrue(CTX.describe(CTX.compressPerValue(page, options("zstd", i)).encoding()).toString().startsWith("general(zstd 0, axis_delta("));
    // unasked, rows of 1 KiB stay plain; compression=none, another plugin's scheme: plain
    for (FieldOptions o : List.of(options(null, i), options("none", i), options("fsst", i))) {
      assertEquals("fixed_size_list(8, fixed_size_list(32, flat(32)))", CTX.describe(CTX.compressPerValue(page, o).encoding()).toString(),
          o.toString());
    }
    // a page under 32 KiB is not compressed value by value even when asked (as for strings)
    DataBlock tiny = tensors(small, 32, leaf(rnd, small, 32, 20, true), 20);
    assertEquals("fixed_size_list(8, fixed_size_list(32, flat(32)))", CTX.describe(CTX.compressPerValue(tiny, options("zstd", i)).encoding()).toString());
    // unasked, rows over 32 KiB get zstd level 0; rows of exactly 32 KiB do not
    long[] exact = {128, 64};
    DataBlock at = tensors(exact, 32, leaf(rnd, exact, 32, 2, true), 2);
    assertTrue(!CTX.describe(CTX.compressPerValue(at, options(null, i)).encoding()).toString().startsWith("general"));
    long[] big = {129, 64};
    byte[] bigLeaf = leaf(rnd, big, 32, 2, true);
    Encoded<DataBlock> auto = CTX.compressPerValue(tensors(big, 32, bigLeaf, 2), options(null, i));
    assertTrue(CTX.describe(auto.encoding()).toString().startsWith("general(zstd 0, axis_delta("), CTX.describe(auto.encoding()).toString());
    assertArrayEquals(bigLeaf, rows(CTX.perValue(auto.encoding()).decompress(auto.data(), null)));
    // noise does not shrink: declined, the rows stay plain
    DataBlock noise = tensors(small, 32, leaf(rnd, small, 32, 40, false), 40);
    assertEquals("fixed_size_list(8, fixed_size_list(32, flat(32)))", CTX.describe(CTX.compressPerValue(noise, options("zstd", i)).encoding()).toString());
    assertTrue(new GeneralPlugin().proposePerValue(noise, new Ctx(options("zstd", i), Optional.empty())).isEmpty());
    // lists with item validity, boolean and 24-bit leaves, plain fixed-width values: not offered
    byte[] l = leaf(rnd, small, 32, 40, true);
    DataBlock withNulls = new DataBlock.FixedSizeList(
        new DataBlock.Nullable(new DataBlock.FixedWidth(l, 32, 40 * 256), new byte[40 * 32]), 256, 40);
    DataBlock bools = new DataBlock.FixedSizeList(new DataBlock.FixedWidth(new byte[40 * 4096 / 8], 1, 40 * 4096), 4096, 40);
    DataBlock odd = new DataBlock.FixedSizeList(new DataBlock.FixedWidth(new byte[40 * 3 * 512], 24, 40 * 512), 512, 40);
    for (DataBlock b : List.of(withNulls, bools, odd)) {
      assertTrue(new GeneralPlugin().proposePerValue(b, new Ctx(options("zstd", i), Optional.empty())).isEmpty(), b.toString());
    }
    // rows are framed under General, which has no snappy value in 2.3: declined, rows stay unframed
    assertTrue(new GeneralPlugin().proposePerValue(page, new Ctx(options("snappy", i), Optional.empty())).isEmpty());
  }

  /**
   * Another plugin's rows (here a stand-in that keeps the low byte of 16-bit items, as a
   * bit-packed leaf might) are framed when smaller than every candidate of ours; the plain rows
   * from the built-in codec are not a candidate of their own.
   */
  @Test
  void anotherPluginsRowsWhenSmaller() {
    Random rnd = new Random(23);
    long[] dims = {512};
    int n = 64;
    byte[] leaf = new byte[n * 512 * 2];
    for (int k = 0; k < n * 512; k++) {
      leaf[2 * k] = (byte) rnd.nextInt(256);
    }
    DataBlock block = tensors(dims, 16, leaf, n);
    CompressiveEncoding narrow = AxisDeltaTest.fsl(512, false, AxisDeltaTest.flat(8));
    io.lancecodec.spi.Compressor<Encoded<DataBlock>> low = b -> {
      byte[] src = AxisDelta.leafBytes(b);
      int m = (int) b.numValues() * 512;
      byte[] out = new byte[m];
      for (int k = 0; k < m; k++) {
        out[k] = src[2 * k];
      }
      return new Encoded<>(new DataBlock.FixedWidth(out, 512 * 8, b.numValues()), narrow);
    };
    Optional<Proposal<Encoded<DataBlock>>> offer = Optional.of(Proposal.estimated("narrow", n * 512L, low, block));
    Proposal<Encoded<DataBlock>> p = new GeneralPlugin()
        .proposePerValue(block, new Ctx(options("zstd", FieldOptions.NumberKind.UNSIGNED_INTEGER), offer)).orElseThrow();
    assertEquals("general-zstd-inner", p.codec());
    assertEquals("general(zstd 0, fixed_size_list(512, flat(8)))", CTX.describe(p.result().encoding()).toString());
    byte[] back = rows(CTX.perValue(p.result().encoding()).decompress(p.result().data(), null));
    assertArrayEquals(rows(low.compress(block).data()), back);
    // the built-in plain rows as the best other offer: our own plain candidate, nothing new
    io.lancecodec.spi.Compressor<Encoded<DataBlock>> plain = b -> new Encoded<>(
        new DataBlock.FixedWidth(AxisDelta.leafBytes(b), 512 * 16, b.numValues()), AxisDelta.shapeOf(b).encoding());
    Proposal<Encoded<DataBlock>> q = new GeneralPlugin().proposePerValue(block,
        new Ctx(options("zstd", FieldOptions.NumberKind.UNSIGNED_INTEGER), Optional.of(Proposal.estimated("flat", leaf.length, plain, block))))
        .orElseThrow();
    assertTrue(!q.codec().endsWith("-inner"), q.codec());
    // variable-width rows are not wrapped
    io.lancecodec.spi.Compressor<Encoded<DataBlock>> var = b -> new Encoded<>(
        new DataBlock.VariableWidth(new byte[4 * (n + 1)], 32, new byte[0], n), narrow);
    Proposal<Encoded<DataBlock>> v = new GeneralPlugin().proposePerValue(block,
        new Ctx(options("zstd", FieldOptions.NumberKind.UNSIGNED_INTEGER), Optional.of(Proposal.estimated("v", 1, var, block))))
        .orElseThrow();
    assertTrue(!v.codec().endsWith("-inner"), v.codec());
  }

  /** Frames with some rows left empty (null rows): those rows decode to zeros, the others to their values. */
  @Test
  void emptyFramesAreZeroRows() {
    Random rnd = new Random(24);
    long[] dims = {4, 24};
    int n = 12;
    byte[] leaf = leaf(rnd, dims, 16, n, true);
    DataBlock block = tensors(dims, 16, leaf, n);
    AxisDelta.Shape shape = AxisDelta.shapeOf(block);
    int rb = shape.rowBytes();
    for (int[] c : List.of(new int[] {0, 0}, new int[] {24, 1}, new int[] {4, 24})) {
      Encoded<DataBlock> enc = new GeneralRows.Compressor(Scheme.ZSTD.codec(OptionalInt.of(3)), Scheme.ZSTD.describe23(OptionalInt.of(3)),
          shape, c[0], c[1], null).compress(block);
      DataBlock.VariableWidth vw = withEmpty((DataBlock.VariableWidth) enc.data(), new boolean[] {true, false, false, true, false, false,
          false, false, false, false, false, true});
      byte[] want = leaf.clone();
      for (int r : new int[] {0, 3, 11}) {
        Arrays.fill(want, r * rb, (r + 1) * rb, (byte) 0);
      }
      PerValueDecompressor d = CTX.perValue(enc.encoding());
      assertArrayEquals(want, rows(d.decompress(vw, null)));
      DecodeBuffers reuse = new DecodeBuffers();
      // a first read leaves its bytes in the reused arrays: the empty rows must still come out zero
      d.decompress(enc.data(), reuse);
      assertArrayEquals(want, rows(d.decompress(vw, reuse)));
      // all rows empty: zeros of the row width
      DataBlock.VariableWidth none = withEmpty(vw, fill(n));
      assertArrayEquals(new byte[n * rb], rows(d.decompress(none, null)));
    }
  }

  /**
   * A child whose decoder does not report its row width (lists with item validity): the frames
   * give it, every one the same; a read of empty frames only is all null.
   */
  @Test
  void rowWidthFromTheFrames() {
    CompressiveEncoding fslWithValidity = AxisDeltaTest.fsl(4, true, AxisDeltaTest.flat(8));
    CompressiveEncoding tree = GeneralMiniBlock.wrap23(Scheme.LZ4.describe23(OptionalInt.empty()), fslWithValidity);
    BufferCodec lz4 = Scheme.LZ4.codec(OptionalInt.empty());
    // rows: validity byte, then 4 items
    byte[][] rows = {{0x0f, 1, 2, 3, 4}, {0x05, 9, 0, 7, 0}, {0x0f, 5, 5, 5, 5}};
    DataBlock.VariableWidth frames = framed(lz4, rows);
    PerValueDecompressor d = CTX.perValue(tree);
    assertEquals("0f01020304" + "0509000700" + "0f05050505", hex(d.decompress(frames, null)));
    DataBlock.VariableWidth someEmpty = withEmpty(frames, new boolean[] {false, true, false});
    assertEquals("0f01020304" + "0000000000" + "0f05050505", hex(d.decompress(someEmpty, null)));
    DataBlock none = d.decompress(withEmpty(frames, fill(3)), null);
    assertTrue(none instanceof DataBlock.AllNull && none.numValues() == 3, none.toString());
    // frames that disagree on the width
    General23ContextsTest.G.corrupt(() -> d.decompress(framed(lz4, new byte[][] {{1, 2, 3, 4, 5}, {1, 2, 3, 4}}), null));
    // a width the child refuses
    General23ContextsTest.G.corrupt(() -> d.decompress(framed(lz4, new byte[][] {{1, 2, 3, 4}, {1, 2, 3, 4}}), null));
  }

  static String hex(DataBlock b) {
    DataBlock.FixedWidth fw = (DataBlock.FixedWidth) b;
    return java.util.HexFormat.of().formatHex(fw.data(), 0, fw.usedBytes());
  }

  static boolean[] fill(int n) {
    boolean[] b = new boolean[n];
    Arrays.fill(b, true);
    return b;
  }

  /** Each row one frame, as the compressor writes them. */
  static DataBlock.VariableWidth framed(BufferCodec codec, byte[][] rows) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    byte[] offsets = new byte[4 * (rows.length + 1)];
    for (int i = 0; i < rows.length; i++) {
      out.writeBytes(codec.compress(rows[i], 0, rows[i].length));
      LittleEndian.putInt(offsets, 4 * (i + 1), out.size());
    }
    return new DataBlock.VariableWidth(offsets, 32, out.toByteArray(), rows.length);
  }

  /** {@code vw} with the rows marked in {@code empty} holding no bytes, as the layout hands over null rows. */
  static DataBlock.VariableWidth withEmpty(DataBlock.VariableWidth vw, boolean[] empty) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    int n = (int) vw.numValues();
    byte[] offsets = new byte[4 * (n + 1)];
    for (int i = 0; i < n; i++) {
      if (!empty[i]) {
        out.write(vw.data(), (int) vw.offset(i), (int) (vw.offset(i + 1) - vw.offset(i)));
      }
      LittleEndian.putInt(offsets, 4 * (i + 1), out.size());
    }
    return new DataBlock.VariableWidth(offsets, 32, out.toByteArray(), n);
  }

  /** {@code vw} with each frame replaced by what {@code edit} makes of it. */
  static DataBlock.VariableWidth edited(DataBlock.VariableWidth vw, java.util.function.BiFunction<Integer, byte[], byte[]> edit) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    int n = (int) vw.numValues();
    byte[] offsets = new byte[4 * (n + 1)];
    for (int i = 0; i < n; i++) {
      out.writeBytes(edit.apply(i, Arrays.copyOfRange(vw.data(), (int) vw.offset(i), (int) vw.offset(i + 1))));
      LittleEndian.putInt(offsets, 4 * (i + 1), out.size());
    }
    return new DataBlock.VariableWidth(offsets, 32, out.toByteArray(), n);
  }

  @Test
  void damagedFramesAndTrees() {
    Random rnd = new Random(25);
    long[] dims = {6, 10};
    int n = 8;
    byte[] leaf = leaf(rnd, dims, 32, n, true);
    DataBlock block = tensors(dims, 32, leaf, n);
    AxisDelta.Shape shape = AxisDelta.shapeOf(block);
    int rb = shape.rowBytes();
    for (Scheme s : List.of(Scheme.LZ4, Scheme.ZSTD)) {
      OptionalInt level = s == Scheme.ZSTD ? OptionalInt.of(0) : OptionalInt.empty();
      for (int[] c : List.of(new int[] {0, 0}, new int[] {10, 1})) {
        Encoded<DataBlock> enc = new GeneralRows.Compressor(s.codec(level), s.describe23(level), shape, c[0], c[1], null).compress(block);
        DataBlock.VariableWidth vw = (DataBlock.VariableWidth) enc.data();
        PerValueDecompressor d = CTX.perValue(enc.encoding());
        int prefix = s == Scheme.LZ4 ? 4 : 8;
        String what = s + " " + Arrays.toString(c);
        // truncated frames: inside the prefix, and inside the body
        for (int cut : new int[] {1, prefix - 1, prefix, prefix + 2}) {
          int keep = cut;
          General23ContextsTest.G.corrupt(() -> d.decompress(edited(vw, (i, f) -> i == 3 ? Arrays.copyOf(f, keep) : f), null));
        }
        General23ContextsTest.G.corrupt(() -> d.decompress(edited(vw, (i, f) -> i == 5 ? Arrays.copyOf(f, f.length - 1) : f), null));
        // forged lengths: one more than a row (refused before decoding), huge, one less
        for (long forged : new long[] {rb + 1, 1L << 40, 0xFFFFFFFFL, rb - 1, 0}) {
          General23ContextsTest.G.corrupt(() -> d.decompress(edited(vw, (i, f) -> {
            if (i == 2) {
              f = f.clone();
              LittleEndian.putUnsigned(f, 0, prefix, forged);
            }
            return f;
          }), null));
        }
        // a bare zstd frame (no length prefix) and a frame of another scheme
        BufferCodec other = s == Scheme.LZ4 ? Scheme.ZSTD.codec(OptionalInt.of(0)) : Scheme.LZ4.codec(OptionalInt.empty());
        General23ContextsTest.G.corrupt(() -> d.decompress(edited(vw, (i, f) -> i == 1
            ? Arrays.copyOfRange(f, prefix, f.length) : f), null));
        General23ContextsTest.G.corrupt(() -> d.decompress(edited(vw, (i, f) -> i == 1
            ? other.compress(leaf, rb, rb) : f), null));
        // offsets out of the values, and not frames at all
        byte[] offs = vw.offsets().clone();
        LittleEndian.putInt(offs, 4 * 4, vw.data().length + 10);
        General23ContextsTest.G.corrupt(() -> d.decompress(new DataBlock.VariableWidth(offs, 32, vw.data(), n), null));
        byte[] down = vw.offsets().clone();
        LittleEndian.putInt(down, 4 * 4, (int) vw.offset(2));
        LittleEndian.putInt(down, 4 * 3, (int) vw.offset(5));
        General23ContextsTest.G.corrupt(() -> d.decompress(new DataBlock.VariableWidth(down, 32, vw.data(), n), null));
        General23ContextsTest.G.corrupt(() -> d.decompress(new DataBlock.FixedWidth(leaf, rb * 8, n), null));
        // random damage: a clean refusal or the right number of rows of the right width
        byte[] good = rows(d.decompress(vw, null));
        int refused = 0;
        for (int k = 0; k < 300; k++) {
          byte[] data = vw.data().clone();
          DataBlock.VariableWidth bad;
          if (k % 2 == 0) {
            data[rnd.nextInt(data.length)] ^= (byte) (1 + rnd.nextInt(255));
            bad = new DataBlock.VariableWidth(vw.offsets(), 32, data, n);
          } else {
            int row = rnd.nextInt(n);
            int drop = 1 + rnd.nextInt(6);
            bad = edited(vw, (i, f) -> i == row ? Arrays.copyOf(f, Math.max(0, f.length - drop)) : f);
          }
          try {
            DataBlock.FixedWidth got = (DataBlock.FixedWidth) d.decompress(bad, null);
            assertEquals(good.length, got.usedBytes(), what);
            assertEquals(n, got.numValues());
          } catch (LanceCodecException e) {
            assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
            assertTrue(!e.getMessage().contains("\n"), e.getMessage());
            refused++;
          }
        }
        assertTrue(refused > 100, what + ": refused " + refused);
      }
    }
    // trees: what General may wrap per value, and what may be under its axis delta
    CompressiveEncoding six = AxisDeltaTest.fsl(6, false, AxisDeltaTest.flat(32));
    for (CompressiveEncoding values : List.of(
        AxisDeltaTest.flat(32),
        AxisDeltaTest.axisDelta(2, 1, AxisDeltaTest.flat(32)),
        AxisDeltaTest.axisDelta(2, 1, AxisDeltaTest.fsl(6, true, AxisDeltaTest.flat(32))),
        AxisDeltaTest.axisDelta(4, 1, six),
        AxisDeltaTest.axisDelta(2, 1, AxisDeltaTest.fsl(6, false, AxisDeltaTest.flat(12))),
        GeneralMiniBlock.wrap23(Scheme.LZ4.describe23(OptionalInt.empty()), six))) {
      CompressiveEncoding tree = GeneralMiniBlock.wrap23(Scheme.ZSTD.describe23(OptionalInt.empty()), values);
      General23ContextsTest.G.corrupt(() -> CTX.perValue(tree));
    }
    // per value only, under General too
    CompressiveEncoding delta = GeneralMiniBlock.wrap23(Scheme.ZSTD.describe23(OptionalInt.empty()), AxisDeltaTest.axisDelta(2, 1, six));
    General23ContextsTest.G.corrupt(() -> CTX.miniBlock(delta));
    General23ContextsTest.G.corrupt(() -> CTX.block(delta));
  }

  /** A 2.3 proposal context with the given options and the given best offer of the other plugins. */
  record Ctx(FieldOptions options, Optional<Proposal<Encoded<DataBlock>>> inner) implements ProposalContext {
    @Override
    public Stats stats() {
      return new Stats.Other(0);
    }

    @Override
    public FileVersion version() {
      return FileVersion.V2_3;
    }

    @Override
    public Optional<Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock block) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock block) {
      return inner;
    }

    @Override
    public Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock block) {
      return Optional.empty();
    }
  }
}
