package io.lancecodec.codec.general;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When the plugin offers itself, with what, and that it declines everywhere else. */
class GeneralProposalTest {
  private final GeneralPlugin plugin = new GeneralPlugin();

  record Ctx(Stats stats, FieldOptions options, FileVersion version) implements ProposalContext {
    @Override
    public Optional<Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock block) {
      return Optional.of(Proposal.estimated("flat", block.numValues(), new TestCodecs.FlatBytes(), block));
    }

    @Override
    public Optional<Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock block) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock block) {
      return Optional.of(Proposal.estimated("flat", 0, TestCodecs.FLAT_BLOCK, block));
    }
  }

  static Ctx ctx(DataBlock b, FileVersion v, String... kv) {
    java.util.Map<String, String> m = new java.util.TreeMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(FieldOptions.PREFIX + kv[i], kv[i + 1]);
    }
    long bytes = b instanceof DataBlock.VariableWidth vw ? vw.data().length : ((DataBlock.FixedWidth) b).usedBytes();
    long max = b instanceof DataBlock.VariableWidth vw ? maxLen(vw) : 1;
    Stats stats = b instanceof DataBlock.VariableWidth vw ? new Stats.VariableWidth(b.numValues(), vw.bitsPerOffset(), bytes, max)
        : new Stats.FixedWidth(b.numValues(), 8, 8, b.numValues(), bytes);
    return new Ctx(stats, io.lancecodec.runtime.CodecRegistry.discover().parseOptions(m), v);
  }

  static long maxLen(DataBlock.VariableWidth vw) {
    long max = 0;
    for (int i = 0; i < vw.numValues(); i++) {
      max = Math.max(max, vw.offset(i + 1) - vw.offset(i));
    }
    return max;
  }

  static DataBlock.FixedWidth bytes(int n) {
    return new DataBlock.FixedWidth(TestCodecs.data(n, 1, true), 8, n);
  }

  static DataBlock.VariableWidth values(int count, int len) {
    byte[] data = TestCodecs.data(count * len, 2, true);
    byte[] off = new byte[(count + 1) * 4];
    for (int i = 0; i <= count; i++) {
      LittleEndian.putInt(off, i * 4, i * len);
    }
    return new DataBlock.VariableWidth(off, 32, data, count);
  }

  @Test
  void miniBlockOnlyWhenAsked() {
    DataBlock.FixedWidth b = bytes(20_000);
    assertTrue(plugin.proposeMiniBlock(b, ctx(b, FileVersion.V2_1)).isEmpty(), "no scheme asked");
    assertTrue(plugin.proposeMiniBlock(b, ctx(b, FileVersion.V2_1, "compression", "none")).isEmpty());
    assertTrue(plugin.proposeMiniBlock(b, ctx(b, FileVersion.V2_1, "compression", "fsst")).isEmpty());
    for (String s : new String[] {"zstd", "lz4", "snappy"}) {
      Proposal<MiniBlockCompressed> p = plugin.proposeMiniBlock(b, ctx(b, FileVersion.V2_1, "compression", s)).orElseThrow();
      MiniBlockCompressed out = p.compressor().compress(b);
      long total = out.buffers().stream().mapToLong(x -> x.length).sum();
      assertEquals(total, p.estimatedBytes(), "exact estimate");
      assertTrue(p.estimatedBytes() < b.usedBytes() / 2);
      assertTrue(((CompressiveEncoding) out.encoding()).hasGeneral());
    }
  }

  @Test
  void miniBlockDeclinesSmallAndIncompressiblePages() {
    DataBlock.FixedWidth small = bytes(4000);
    assertTrue(plugin.proposeMiniBlock(small, ctx(small, FileVersion.V2_2, "compression", "zstd")).isEmpty(), "under 4 KiB");
    byte[] rnd = TestCodecs.data(20_000, 3, false);
    DataBlock.FixedWidth noise = new DataBlock.FixedWidth(rnd, 8, rnd.length);
    assertTrue(plugin.proposeMiniBlock(noise, ctx(noise, FileVersion.V2_2, "compression", "lz4")).isEmpty(), "does not shrink");
  }

  @Test
  void bssOnlyUnderAScheme() {
    byte[] d = new byte[8 * 4000];
    for (int i = 0; i < 4000; i++) {
      LittleEndian.putLong(d, i * 8, Double.doubleToRawLongBits(1000 + (i % 50) * 0.1));
    }
    DataBlock.FixedWidth f64 = new DataBlock.FixedWidth(d, 64, 4000);
    assertTrue(GeneralPlugin.useBss(f64, ctx(f64, FileVersion.V2_1).options()), "auto: low entropy");
    assertFalse(GeneralPlugin.useBss(f64, ctx(f64, FileVersion.V2_1, "bss", "off").options()));
    CompressiveEncoding e =
        (CompressiveEncoding)
            plugin.proposeMiniBlock(f64, ctx(f64, FileVersion.V2_1, "compression", "zstd")).orElseThrow().compressor().compress(f64).encoding();
    assertTrue(e.getGeneral().getValues().hasByteStreamSplit(), e.toString());
    byte[] noise = TestCodecs.data(8 * 4000, 9, false);
    DataBlock.FixedWidth random = new DataBlock.FixedWidth(noise, 64, 4000);
    assertFalse(GeneralPlugin.useBss(random, ctx(random, FileVersion.V2_1).options()), "auto: high entropy");
    assertTrue(GeneralPlugin.useBss(random, ctx(random, FileVersion.V2_1, "bss", "on").options()));
    assertThrows(LanceCodecException.class, () -> GeneralPlugin.useBss(f64, ctx(f64, FileVersion.V2_1, "bss", "maybe").options()));
  }

  @Test
  void blockOnlyIn22AndOnlyWhenAskedOrLarge() {
    DataBlock.FixedWidth small = bytes(30_000);
    DataBlock.FixedWidth large = bytes(40_000);
    assertTrue(plugin.proposeBlock(large, ctx(large, FileVersion.V2_1)).isEmpty(), "never in 2.1");
    assertTrue(plugin.proposeBlock(large, ctx(large, FileVersion.V2_1, "compression", "zstd")).isEmpty(), "never in 2.1");
    assertTrue(plugin.proposeBlock(small, ctx(small, FileVersion.V2_2)).isEmpty(), "32 KiB or less");
    Proposal<Encoded<byte[]>> auto = plugin.proposeBlock(large, ctx(large, FileVersion.V2_2)).orElseThrow();
    CompressiveEncoding e = (CompressiveEncoding) auto.compressor().compress(large).encoding();
    assertEquals(io.lancecodec.format.pb.v21.CompressionScheme.COMPRESSION_ALGORITHM_ZSTD, e.getGeneral().getCompression().getScheme());
    assertEquals(0, e.getGeneral().getCompression().getLevel());
    assertTrue(plugin.proposeBlock(small, ctx(small, FileVersion.V2_2, "compression", "lz4")).isPresent(), "asked");
  }

  @Test
  void perValueForHugeValuesOrWhenAsked() {
    DataBlock.VariableWidth huge = values(3, 40_000);
    DataBlock.VariableWidth medium = values(200, 300);
    Proposal<Encoded<DataBlock>> p = plugin.proposePerValue(huge, ctx(huge, FileVersion.V2_1)).orElseThrow();
    CompressiveEncoding e = (CompressiveEncoding) p.compressor().compress(huge).encoding();
    assertEquals(io.lancecodec.format.pb.v21.CompressionScheme.COMPRESSION_ALGORITHM_ZSTD, e.getGeneral().getCompression().getScheme());
    assertTrue(plugin.proposePerValue(medium, ctx(medium, FileVersion.V2_1)).isEmpty(), "values under 32 KiB, nothing asked");
    CompressiveEncoding asked =
        (CompressiveEncoding) plugin.proposePerValue(medium, ctx(medium, FileVersion.V2_2, "compression", "lz4")).orElseThrow().compressor().compress(medium).encoding();
    assertEquals(io.lancecodec.format.pb.v21.CompressionScheme.COMPRESSION_ALGORITHM_ZSTD, asked.getGeneral().getCompression().getScheme(), "lz4 asked -> zstd, like the reference");
    assertTrue(plugin.proposePerValue(huge, ctx(huge, FileVersion.V2_1, "compression", "none")).isEmpty());
  }

  @Test
  void snappyOnlyWhenAskedByName() {
    DataBlock.FixedWidth b = bytes(50_000);
    for (FileVersion v : new FileVersion[] {FileVersion.V2_1, FileVersion.V2_2}) {
      for (Map.Entry<String, String> o : Map.of("compression", "zstd", "compression-level", "3").entrySet()) {
        Ctx c = ctx(b, v, o.getKey(), o.getValue());
        plugin.proposeMiniBlock(b, c).ifPresent(p -> assertFalse(p.codec().contains("snappy")));
        plugin.proposeBlock(b, c).ifPresent(p -> assertFalse(p.codec().contains("snappy")));
      }
      assertTrue(plugin.proposeBlock(b, ctx(b, v)).map(p -> !p.codec().contains("snappy")).orElse(true));
    }
  }

  @Test
  void serviceFileAndModuleInfoAgree() throws Exception {
    String services = Files.readString(Path.of("src/main/resources/META-INF/services/io.lancecodec.spi.CodecPlugin")).trim();
    String module = Files.readString(Path.of("src/main/java/module-info.java"));
    assertEquals(GeneralPlugin.class.getName(), services);
    assertTrue(module.replaceAll("\\s+", " ").contains("provides io.lancecodec.spi.CodecPlugin with " + services + ";"));
  }
}
