package io.lancecodec.layout.physical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.protobuf.Message;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.Stats;
import io.lancecodec.spi.layout.LayoutContext;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * With a writer's context the extended dictionary trial reads the page's statistics from it and,
 * for a page without nulls of no more runs than its budget, writes each run's id in one pass:
 * the same dictionary (ids, items, their order) as the trial without a context, or none when
 * that gives up; the statistics it hands over for the indices are exactly theirs.
 */
class DictionaryTrialPathsTest {
  /** Keeps the statistics it is asked for or handed; compresses nothing. */
  static final class StatsContext implements LayoutContext {
    final Map<DataBlock, Stats> kept = new IdentityHashMap<>();

    @Override
    public Stats stats(DataBlock values) {
      Stats s = Stats.of(values);
      kept.put(values, s);
      return s;
    }

    @Override
    public void keepStats(DataBlock values, Stats stats) {
      kept.put(values, stats);
    }

    @Override
    public FileVersion version() {
      return FileVersion.V2_1;
    }

    @Override
    public MiniBlockCompressed compressMiniBlock(DataBlock values, FieldOptions options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Encoded<DataBlock> compressPerValue(DataBlock values, FieldOptions options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Encoded<byte[]> compressBlock(DataBlock values, FieldOptions options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public BlockCompressor levelsFor(DataBlock levels, long sliceValues) {
      throw new UnsupportedOperationException();
    }

    @Override
    public MiniBlockDecompressor miniBlock(Message compressiveEncoding) {
      throw new UnsupportedOperationException();
    }

    @Override
    public BlockDecompressor block(Message compressiveEncoding) {
      throw new UnsupportedOperationException();
    }

    @Override
    public PerValueDecompressor perValue(Message compressiveEncoding) {
      throw new UnsupportedOperationException();
    }

    @Override
    public EncodingSummary describe(Message compressiveEncoding) {
      throw new UnsupportedOperationException();
    }
  }

  @ParameterizedTest(name = "{0} bits, {1} distinct, runs up to {2}, nulls {3}")
  @CsvSource({
    "32, 1311, 300, false", "64, 1311, 300, false", "16, 1079, 1, false", "32, 40, 1, false", "64, 40, 5, false",
    "32, 40, 5, true", "64, 300, 50, true", "16, 300, 50, true", "32, 1, 100000, false", "64, 5000, 2, false",
    "32, 60000, 1, false"
  })
  void sameDictionaryWithAndWithoutContext(int bits, int distinct, int maxRun, boolean nulls) {
    // 2.1 keeps u32 indices; 2.3 stores them 1 or 2 bytes wide when the items allow (the trial
    // of runs writes them so at once, the others narrow afterwards), but not under zstd
    sameDictionary(bits, distinct, maxRun, nulls, FileVersion.V2_1, FieldOptions.DEFAULT);
    sameDictionary(bits, distinct, maxRun, nulls, FileVersion.V2_3, FieldOptions.DEFAULT);
    sameDictionary(bits, distinct, maxRun, nulls, FileVersion.V2_3, FieldOptions.builder().compression("zstd").build());
  }

  /**
   * Values of at most {@link DictionaryEncoder#BITMAP_MAX_BITS} bits are collected in a bitmap,
   * wider ones by hashing: either way the items come in first-seen order (nulls skipped, their
   * slots index 0), and a page past the budget keeps no dictionary.
   */
  @ParameterizedTest(name = "{0} bits wide values below 2^{1}, {2} distinct, nulls {3}: dictionary {4}")
  @CsvSource({
    "32, 14, 200, false, true", "32, 17, 200, true, true", "32, 20, 3000, false, true", "32, 21, 3000, false, true",
    "64, 20, 200, true, true", "64, 21, 200, false, true", "32, 17, 60000, false, false",
    // 6-bit values: too narrow for an index of 5 bits to save a fifth, given up after collecting
    "32, 6, 40, false, false", "64, 3, 5, true, true"
  })
  void itemsInFirstSeenOrder(int bits, int width, int distinct, boolean nulls, boolean kept) {
    int n = 200_000;
    int w = bits / 8;
    Random rnd = new Random(width * 131L + distinct + bits);
    long[] pool = new long[distinct];
    for (int k = 0; k < distinct; k++) {
      pool[k] = rnd.nextLong() >>> (64 - width) | 1L << (width - 1);
    }
    byte[] data = new byte[n * w];
    short[] def = nulls ? new short[n] : null;
    Map<Long, Integer> ids = new java.util.LinkedHashMap<>();
    byte[] expected = new byte[4 * n];
    for (int i = 0; i < n; i++) {
      if (nulls && rnd.nextInt(6) == 0) {
        def[i] = 1;
        LittleEndian.putUnsigned(data, i * w, w, pool[0]);
        continue;
      }
      long v = pool[rnd.nextInt(distinct)];
      LittleEndian.putUnsigned(data, i * w, w, v);
      LittleEndian.putInt(expected, i * 4, ids.computeIfAbsent(v, x -> ids.size()));
    }
    DictionaryEncoder.Result r = DictionaryEncoder.tryEncode(new DataBlock.FixedWidth(data, bits, n), def, FieldOptions.DEFAULT,
        FileVersion.V2_1, new StatsContext());
    if (!kept) {
      assertNull(r);
      return;
    }
    assertNotNull(r);
    assertEquals(ids.size(), r.numItems());
    assertArrayEquals(expected, r.indices().data());
    byte[] items = ((DataBlock.FixedWidth) r.items()).data();
    int k = 0;
    for (long v : ids.keySet()) {
      assertEquals(v, LittleEndian.getUnsigned(items, k++ * w, w));
    }
  }

  private static void sameDictionary(int bits, int distinct, int maxRun, boolean nulls, FileVersion version, FieldOptions options) {
    int n = 100_000;
    int w = bits / 8;
    Random rnd = new Random(bits * 7919L + distinct * 31L + maxRun + (nulls ? 1 : 0));
    long[] pool = new long[distinct];
    for (int k = 0; k < distinct; k++) {
      pool[k] = (rnd.nextLong() >>> (64 - bits)) | 1L << (bits - 2);
    }
    byte[] data = new byte[n * w];
    short[] def = nulls ? new short[n] : null;
    int i = 0;
    while (i < n) {
      long v = pool[rnd.nextInt(distinct)];
      int len = 1 + rnd.nextInt(maxRun);
      for (int k = i; k < Math.min(n, i + len); k++) {
        boolean isNull = nulls && rnd.nextInt(8) == 0;
        if (isNull) {
          def[k] = 1;
        }
        LittleEndian.putUnsigned(data, k * w, w, isNull ? 0 : v);
      }
      i += len;
    }
    DataBlock.FixedWidth values = new DataBlock.FixedWidth(data, bits, n);
    DictionaryEncoder.Result plain = DictionaryEncoder.tryEncode(values, def, options, version);
    StatsContext ctx = new StatsContext();
    DictionaryEncoder.Result withContext = DictionaryEncoder.tryEncode(values, def, options, version, ctx);
    if (plain == null) {
      assertNull(withContext);
      return;
    }
    assertNotNull(withContext);
    assertEquals(plain.numItems(), withContext.numItems());
    assertEquals(plain.indices().bitsPerValue(), withContext.indices().bitsPerValue());
    if (version == FileVersion.V2_3 && options.compression().isEmpty()) {
      assertEquals(plain.numItems() <= 256 ? 8 : plain.numItems() <= 65536 ? 16 : 32, withContext.indices().bitsPerValue());
    }
    assertArrayEquals(plain.indices().data(), withContext.indices().data());
    assertArrayEquals(((DataBlock.FixedWidth) plain.items()).data(), ((DataBlock.FixedWidth) withContext.items()).data());
    // the trial counts no group widths for the indices: bit-packing measures them itself
    assertEquals(((Stats.FixedWidth) Stats.of(withContext.indices())).withoutGroupWidths(), ctx.kept.get(withContext.indices()),
        "statistics handed over for the indices");
  }
}
