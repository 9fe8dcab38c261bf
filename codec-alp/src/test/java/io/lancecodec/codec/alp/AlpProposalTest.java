package io.lancecodec.codec.alp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FieldOptions.Mode;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.Proposal;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * When the plugin offers ALP and when it declines: the {@code alp} option (off, on, auto and
 * its entropy gate), compression=none, file versions, the chunk-size bound, pages ALP cannot
 * shrink, and integer pages, which every mode declines from a sample before any encoding.
 */
class AlpProposalTest {
  static final AlpPlugin PLUGIN = PluginHarness.PLUGIN;

  static Optional<Proposal<MiniBlockCompressed>> propose(DataBlock block, FieldOptions options, FileVersion version) {
    return PLUGIN.proposeMiniBlock(block, new PluginHarness.Context(options, version));
  }

  static Optional<Proposal<MiniBlockCompressed>> propose(DataBlock block, Mode mode) {
    return propose(block, FieldOptions.builder().alp(mode).build(), FileVersion.V2_3);
  }

  /** Prices with two decimals drifting by a few cents: what ALP is for, and low entropy. */
  static double[] prices(int n, long seed) {
    Random rnd = new Random(seed);
    double[] v = new double[n];
    long cents = 10_000 + rnd.nextInt(5_000);
    for (int i = 0; i < n; i++) {
      cents += rnd.nextInt(41) - 20;
      v[i] = BigDecimal.valueOf(cents, 2).doubleValue();
    }
    return v;
  }

  /**
   * Three-decimal values below 100,000: ALP still makes them 27-bit integers, but their bytes
   * look random enough to fail the entropy gate (two decimals repeat more in binary and pass it).
   */
  static double[] spreadDecimals(int n, long seed) {
    Random rnd = new Random(seed);
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = BigDecimal.valueOf(rnd.nextInt(100_000_000), 3).doubleValue();
    }
    return v;
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void theOptionDecidesOnDecimals(Mode mode) {
    DataBlock.FixedWidth block = PluginHarness.block(prices(5000, 3));
    Optional<Proposal<MiniBlockCompressed>> offer = propose(block, mode);
    assertEquals(mode != Mode.OFF, offer.isPresent(), mode.toString());
    if (offer.isPresent()) {
      long raw = 8L * 5000;
      long bytes = offer.get().estimatedBytes();
      assertEquals(MiniBlocks.storedBytes(offer.get().result(), FileVersion.V2_3), bytes);
      // drifting cents need about 13 bits, not 64
      assertTrue(bytes < raw / 3, bytes + " bytes of " + raw);
    }
  }

  @Test
  void autoGatesHighEntropyPagesThatOnStillCompresses() {
    double[] v = spreadDecimals(4096, 5);
    DataBlock.FixedWidth block = PluginHarness.block(v);
    double entropy = AlpEntropyGate.meanBytePositionEntropy(v, 0, v.length);
    assertTrue(entropy >= AlpFormat.ENTROPY_GATE_BITS, "the page's entropy " + entropy + " is under the gate");
    assertFalse(propose(block, Mode.AUTO).isPresent());
    Optional<Proposal<MiniBlockCompressed>> on = propose(block, Mode.ON);
    assertTrue(on.isPresent());
    assertTrue(on.get().estimatedBytes() < 8L * v.length / 2, on.get().estimatedBytes() + " bytes");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void compressionNoneTurnsItOff(Mode mode) {
    FieldOptions none = FieldOptions.builder().compression("none").alp(mode).build();
    assertFalse(propose(PluginHarness.block(prices(3000, 4)), none, FileVersion.V2_3).isPresent());
  }

  /** A field that asked for another whole-chunk scheme (pcodec) gets that scheme, not an ALP offer that outbids it. */
  @ParameterizedTest
  @EnumSource(Mode.class)
  void anotherChunkedSchemeAskedTurnsItOff(Mode mode) {
    FieldOptions pcodec = FieldOptions.builder().compression("pcodec").chunkedCompression(true).alp(mode).build();
    assertFalse(propose(PluginHarness.block(prices(3000, 4)), pcodec, FileVersion.V2_3).isPresent());
  }

  @ParameterizedTest
  @EnumSource(value = FileVersion.class, names = {"V2_1", "V2_2"})
  void onlyIn23(FileVersion version) {
    FieldOptions on = FieldOptions.builder().alp(Mode.ON).build();
    assertFalse(propose(PluginHarness.block(prices(3000, 4)), on, version).isPresent());
    assertEquals(java.util.Set.of(FileVersion.V2_3), PLUGIN.fileVersions());
  }

  /** LANCE_MINIBLOCK_MAX_VALUES below ALP's 1024-value chunks rules it out, as for bit-packing. */
  @ParameterizedTest
  @ValueSource(ints = {8, 512, 1023, 1024, 4096, 32768})
  void chunkBound(int maxValues) {
    FieldOptions o = FieldOptions.builder().miniBlockMaxValues(maxValues).build();
    Optional<Proposal<MiniBlockCompressed>> offer = propose(PluginHarness.block(prices(3000, 6)), o, FileVersion.V2_3);
    assertEquals(maxValues >= 1024, offer.isPresent(), "max " + maxValues);
  }

  /**
   * Values that are neither decimals nor share their top bits (random sign and mantissa, an
   * exponent anywhere from the smallest ALP could scale to the largest finite one): ALP makes
   * every page larger and declines it, even with {@code alp=on}.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 7, 1024, 3000})
  void declinesWhatItCannotShrink(int n) {
    Random rnd = new Random(n);
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      long exponent = IntegerWords.MIN_ADMISSIBLE_EXPONENT_64 + rnd.nextInt(2046 - IntegerWords.MIN_ADMISSIBLE_EXPONENT_64);
      v[i] = Double.longBitsToDouble((rnd.nextLong() & 0x800F_FFFF_FFFF_FFFFL) | exponent << 52);
    }
    assertTrue(AlpPlugin.worthScanning(PluginHarness.block(v), Mode.ON));
    assertFalse(propose(PluginHarness.block(v), Mode.ON).isPresent(), "random doubles");
    float[] f = new float[n];
    for (int i = 0; i < n; i++) {
      int exponent = IntegerWords.MIN_ADMISSIBLE_EXPONENT_32 + rnd.nextInt(254 - IntegerWords.MIN_ADMISSIBLE_EXPONENT_32);
      f[i] = Float.intBitsToFloat((rnd.nextInt() & 0x807F_FFFF) | exponent << 23);
    }
    assertTrue(AlpPlugin.worthScanning(PluginHarness.block(f), Mode.ON));
    assertFalse(propose(PluginHarness.block(f), Mode.ON).isPresent(), "random floats");
  }

  /** Gaussian doubles: no decimals, but ALP-RD stores their few distinct top bits once. */
  @Test
  void alpRdTakesRealDoublesWithoutDecimals() {
    Random rnd = new Random(11);
    double[] v = new double[4096];
    for (int i = 0; i < v.length; i++) {
      v[i] = rnd.nextGaussian();
    }
    Optional<Proposal<MiniBlockCompressed>> on = propose(PluginHarness.block(v), Mode.ON);
    assertTrue(on.isPresent());
    assertTrue(on.get().estimatedBytes() < 8L * v.length, on.get().estimatedBytes() + " bytes");
  }

  /** An offer larger than one the runtime already has loses, so ALP stops encoding and declines. */
  @Test
  void declinesOnceItCannotBeatTheSmallestOfferSoFar() {
    DataBlock.FixedWidth block = PluginHarness.block(prices(16 * 1024, 3));
    long bytes = propose(block, Mode.ON).orElseThrow().estimatedBytes();
    FieldOptions on = FieldOptions.builder().alp(Mode.ON).build();
    assertTrue(PLUGIN.proposeMiniBlock(block, new PluginHarness.Context(on, FileVersion.V2_3, bytes)).isPresent(), "a bound its output meets is kept");
    assertFalse(PLUGIN.proposeMiniBlock(block, new PluginHarness.Context(on, FileVersion.V2_3, bytes / 4)).isPresent(), "a quarter of its size is out of reach");
  }

  @Test
  void onlyWordsOf32Or64Bits() {
    byte[] b = new byte[2 * 3000];
    assertFalse(propose(new DataBlock.FixedWidth(b, 16, 3000), Mode.ON).isPresent());
    assertFalse(propose(new DataBlock.FixedWidth(new byte[3000], 8, 3000), Mode.ON).isPresent());
    assertFalse(propose(new DataBlock.FixedWidth(new byte[0], 64, 0), Mode.ON).isPresent());
    assertFalse(propose(new DataBlock.VariableWidth(new byte[8], 32, new byte[0], 1), Mode.ON).isPresent());
  }

  /** Integer columns the writer hands over as the same 32/64-bit blocks. */
  static long[] int64(String shape, int n, long seed) {
    Random rnd = new Random(seed);
    long[] v = new long[n];
    long t = 1_700_000_000_000L;
    for (int i = 0; i < n; i++) {
      v[i] = switch (shape) {
        case "ids" -> 1_000 + i;
        case "millis" -> t += rnd.nextInt(60_000);
        case "micros" -> (t += rnd.nextInt(60_000)) * 1_000;
        case "nanos" -> (t += rnd.nextInt(60_000)) * 1_000_000;
        case "counter" -> rnd.nextInt(20) == 0 ? rnd.nextInt(50) : 0;
        case "sparse-big" -> rnd.nextInt(100) == 0 ? t + i : 0;
        case "small-signed" -> rnd.nextInt(201) - 100;
        case "negative" -> -1 - rnd.nextInt(1_000_000);
        default -> throw new AssertionError(shape);
      };
    }
    return v;
  }

  static int[] int32(String shape, int n, long seed) {
    Random rnd = new Random(seed);
    int[] v = new int[n];
    long[] millis = int64("millis", n, seed);
    for (int i = 0; i < n; i++) {
      v[i] = switch (shape) {
        case "ids" -> 1_000 + i;
        case "millis" -> (int) (millis[i] % 1_000_000_000L);
        case "micros" -> i * 977;
        case "nanos" -> rnd.nextInt(700_000_000);
        case "counter" -> rnd.nextInt(20) == 0 ? rnd.nextInt(50) : 0;
        case "sparse-big" -> rnd.nextInt(100) == 0 ? 500_000_000 + i : 0;
        case "small-signed" -> rnd.nextInt(201) - 100;
        case "negative" -> -1 - rnd.nextInt(1_000_000);
        default -> throw new AssertionError(shape);
      };
    }
    return v;
  }

  /**
   * No integer page comes out as ALP, whatever the mode: the integer-word gate declines it from a
   * sample of 256 words, before the encoder sees a chunk.
   */
  @ParameterizedTest
  @ValueSource(strings = {"ids", "millis", "micros", "nanos", "counter", "sparse-big", "small-signed", "negative"})
  void integerPagesAreDeclinedBeforeAnyEncoding(String shape) {
    for (int n : new int[] {1, 100, 1024, 5000, 100_000}) {
      DataBlock.FixedWidth wide = PluginHarness.block(int64(shape, n, n));
      DataBlock.FixedWidth narrow = PluginHarness.block(int32(shape, n, n));
      for (Mode mode : Mode.values()) {
        assertFalse(AlpPlugin.worthScanning(wide, mode), shape + " int64 n=" + n + " " + mode);
        assertFalse(AlpPlugin.worthScanning(narrow, mode), shape + " int32 n=" + n + " " + mode);
        assertFalse(propose(wide, mode).isPresent(), shape + " int64 n=" + n + " " + mode);
        assertFalse(propose(narrow, mode).isPresent(), shape + " int32 n=" + n + " " + mode);
      }
    }
  }

  /** Zeros are 0 and 0.0 alike; bit-packing stores them in less than an ALP chunk header. */
  @Test
  void pagesOfZerosAreDeclined() {
    assertFalse(AlpPlugin.worthScanning(PluginHarness.block(new double[5000]), Mode.ON));
    assertFalse(propose(PluginHarness.block(new float[5000]), Mode.ON).isPresent());
    double[] negativeZeros = new double[3000];
    java.util.Arrays.fill(negativeZeros, -0.0);
    assertFalse(propose(PluginHarness.block(negativeZeros), Mode.ON).isPresent());
  }

  @Test
  void floatPagesWithStrayTinyValuesOrNaNsStayIn() {
    double[] v = prices(4096, 8);
    for (int i = 0; i < v.length; i += 17) {
      v[i] = i % 2 == 0 ? Double.MIN_VALUE * i : Double.NaN;
    }
    assertTrue(AlpPlugin.worthScanning(PluginHarness.block(v), Mode.AUTO));
    assertTrue(propose(PluginHarness.block(v), Mode.AUTO).isPresent());
    float[] f = new float[v.length];
    for (int i = 0; i < f.length; i++) {
      f[i] = (float) v[i];
    }
    assertTrue(propose(PluginHarness.block(f), Mode.AUTO).isPresent());
  }

  @Test
  void integerWordsByTheirBits() {
    assertTrue(IntegerWords.integerLike64(1L));
    assertTrue(IntegerWords.integerLike64(1_700_000_000_000_000_000L));
    assertTrue(IntegerWords.integerLike64(-1L));
    assertTrue(IntegerWords.integerLike64(-123_456_789L));
    assertFalse(IntegerWords.integerLike64(Double.doubleToRawLongBits(1e-18)));
    assertTrue(IntegerWords.integerLike64(Double.doubleToRawLongBits(1e-19)));
    assertFalse(IntegerWords.integerLike64(Double.doubleToRawLongBits(Double.NaN)));
    assertFalse(IntegerWords.integerLike64(Double.doubleToRawLongBits(-Double.NaN)));
    assertFalse(IntegerWords.integerLike64(Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY)));
    assertFalse(IntegerWords.integerLike64(Double.doubleToRawLongBits(-47.25)));
    assertTrue(IntegerWords.integerLike32(1));
    assertTrue(IntegerWords.integerLike32(700_000_000));
    assertTrue(IntegerWords.integerLike32(-5));
    assertFalse(IntegerWords.integerLike32(Float.floatToRawIntBits(1e-10f)));
    assertTrue(IntegerWords.integerLike32(Float.floatToRawIntBits(1e-11f)));
    assertFalse(IntegerWords.integerLike32(Float.floatToRawIntBits(Float.NaN)));
    assertFalse(IntegerWords.integerLike32(Float.floatToRawIntBits(Float.POSITIVE_INFINITY)));
    // the thresholds: the largest scale still rounds every value below them to 0
    assertTrue(Math.scalb(1.0, -61) * 1e18 < 0.5);
    assertTrue(Math.scalb(1.0f, -35) * 1e10f < 0.5f);
  }

  @Test
  void describesItselfAroundItsValues() {
    MiniBlockCompressed page = propose(PluginHarness.block(prices(5000, 9)), Mode.ON).orElseThrow().result();
    io.lancecodec.format.pb.v23.CompressiveEncoding e = (io.lancecodec.format.pb.v23.CompressiveEncoding) page.encoding();
    assertTrue(e.hasAlp());
    Optional<EncodingSummary> s = PLUGIN.describe(e.getAlp(), PluginHarness.DECODERS);
    assertEquals("alp(flat(64))", s.orElseThrow().toString());
    assertEquals(java.util.Set.of(io.lancecodec.format.pb.v23.Alp.class), PLUGIN.decodes());
    assertEquals("alp", PLUGIN.name());
    // docs/wire/alp.md §8: field 16 (two-byte tag), values, flat, bits_per_value
    assertEquals("820106" + "0a04" + "0a02" + "0840", java.util.HexFormat.of().formatHex(e.toByteArray()));
    assertEquals("820106" + "0a04" + "0a02" + "0820", java.util.HexFormat.of().formatHex(AlpMiniBlock.encoding(32).toByteArray()));
    assertTrue(PLUGIN.optionKeys().isEmpty() && PLUGIN.compressionSchemes().isEmpty());
  }
}
