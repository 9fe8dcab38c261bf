package io.lancecodec.fuzz;

import com.google.protobuf.Message;
import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Seeds of {@link DecompressorFuzzTest}: what every codec plugin on the class path offers for a
 * few sample blocks (narrow and run-heavy integers, decimal doubles, strings), in 2.1 and 2.3,
 * with default options and with zstd asked, as mini-block chunks, blocks and per-value data,
 * each with its encoding message, in the target's input form.
 */
final class DecompressorSeeds {
  static final int MAX_SEED_BYTES = 16 << 10;


  private DecompressorSeeds() {}

  static List<Path> write(Path dir) throws Exception {
    java.util.Set<String> seen = new java.util.HashSet<>();
    CodecRegistry reg = CodecRegistry.discover();
    List<CodecPlugin> plugins = new ArrayList<>();
    for (CodecRegistry.PluginInfo p : reg.plugins()) {
      reg.codec(p.name()).ifPresent(plugins::add);
    }
    List<Path> out = new ArrayList<>();
    Map<String, DataBlock> blocks = blocks();
    for (FileVersion version : List.of(FileVersion.V2_1, FileVersion.V2_3)) {
      for (Map.Entry<String, FieldOptions> opt : new java.util.TreeMap<>(Map.of("default", FieldOptions.DEFAULT,
          "zstd", reg.parseOptions(Map.of("lance-encoding:compression", "zstd")))).entrySet()) {
        for (Map.Entry<String, DataBlock> b : blocks.entrySet()) {
          Ctx ctx = new Ctx(plugins, stats(b.getValue()), opt.getValue(), version);
          for (CodecPlugin p : plugins) {
            String name = version.toString().replace('.', '_') + "-" + opt.getKey() + "-" + b.getKey() + "-" + p.name();
            Optional<Proposal<MiniBlockCompressed>> mb = p.proposeMiniBlock(b.getValue(), ctx);
            if (mb.isPresent()) {
              out.add(miniBlock(dir.resolve(name + "-miniblock"), version, mb.get().result(), seen));
            }
            Optional<Proposal<Encoded<byte[]>>> bl = p.proposeBlock(b.getValue(), ctx);
            if (bl.isPresent()) {
              Encoded<byte[]> e = bl.get().result();
              out.add(seed(dir.resolve(name + "-block"), version, 1, e.encoding(), (int) b.getValue().numValues(), List.of(e.data()), seen));
            }
            Optional<Proposal<Encoded<DataBlock>>> pv = p.proposePerValue(b.getValue(), ctx);
            if (pv.isPresent() && pv.get().result().data() instanceof DataBlock.VariableWidth vw) {
              out.add(seed(dir.resolve(name + "-pervalue"), version, 2, pv.get().result().encoding(),
                  (int) vw.numValues(), List.of(vw.data()), seen));
            }
          }
        }
      }
    }
    out.removeIf(java.util.Objects::isNull);
    return out;
  }

  private static Path miniBlock(Path path, FileVersion version, MiniBlockCompressed c, java.util.Set<String> seen) throws Exception {
    MiniBlockChunk first = c.chunks().get(0);
    int n = c.chunks().size() == 1 ? (int) c.numValues() : 1 << first.logNumValues();
    List<byte[]> buffers = new ArrayList<>();
    for (int i = 0; i < Math.min(4, first.bufferSizes().length); i++) {
      buffers.add(java.util.Arrays.copyOf(c.buffers().get(i), first.bufferSizes()[i]));
    }
    return seed(path, version, 0, c.encoding(), n, buffers, seen);
  }

  /** Writes one seed, or returns null when {@code seen} already holds its bytes. */
  private static Path seed(Path path, FileVersion version, int context, Message encoding, int n, List<byte[]> buffers,
      java.util.Set<String> seen) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    byte[] m = encoding.toByteArray();
    b.write((version == FileVersion.V2_3 ? 1 : 0) | context << 1);
    u16(b, m.length);
    b.write(m);
    u16(b, n);
    b.write(buffers.size() - 1);
    for (byte[] x : buffers) {
      u16(b, x.length);
    }
    for (byte[] x : buffers) {
      b.write(x, 0, Math.min(x.length, 0xFFFF));
    }
    // large seeds slow every execution that starts from them; a 16 KiB prefix keeps the message
    // and the start of the data, which is where decoders check their headers
    byte[] bytes = java.util.Arrays.copyOf(b.toByteArray(), Math.min(b.size(), MAX_SEED_BYTES));
    if (!seen.add(Fuzz.digest(bytes))) {
      return null; // the same bytes under another name (options that change nothing for this plugin)
    }
    Files.write(path, bytes);
    return path;
  }

  private static void u16(ByteArrayOutputStream b, int v) {
    b.write(v & 0xFF);
    b.write((v >>> 8) & 0xFF);
  }

  private static Map<String, DataBlock> blocks() {
    SplittableRandom rnd = new SplittableRandom(12);
    int n = 1000;
    byte[] narrow = new byte[4 * n];
    byte[] runs = new byte[4 * n];
    byte[] decimals = new byte[8 * n];
    for (int i = 0; i < n; i++) {
      LittleEndian.putInt(narrow, 4 * i, rnd.nextInt(300));
      LittleEndian.putInt(runs, 4 * i, i / 50);
      LittleEndian.putLong(decimals, 8 * i, Double.doubleToLongBits(Math.round(rnd.nextDouble(-100, 100) * 100) / 100.0));
    }
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    byte[] offsets = new byte[4 * (n + 1)];
    String[] words = {"lance", "codec", "http://example.org/a/", "mini-block", "fsst"};
    for (int i = 0; i < n; i++) {
      byte[] s = (words[rnd.nextInt(words.length)] + rnd.nextInt(100)).getBytes(StandardCharsets.UTF_8);
      text.write(s, 0, s.length);
      LittleEndian.putInt(offsets, 4 * (i + 1), text.size());
    }
    ByteArrayOutputStream urls = new ByteArrayOutputStream();
    int urlCount = 600;
    byte[] urlOffsets = new byte[4 * (urlCount + 1)];
    for (int i = 0; i < urlCount; i++) {
      byte[] s = ("https://lists.example.org/archive/" + words[rnd.nextInt(words.length)] + "/" + rnd.nextInt(5000) + ".html")
          .getBytes(StandardCharsets.UTF_8);
      urls.write(s, 0, s.length);
      LittleEndian.putInt(urlOffsets, 4 * (i + 1), urls.size());
    }
    return new java.util.TreeMap<>(Map.of(
        "urls", new DataBlock.VariableWidth(urlOffsets, 32, urls.toByteArray(), urlCount),
        "narrow", new DataBlock.FixedWidth(narrow, 32, n),
        "runs", new DataBlock.FixedWidth(runs, 32, n),
        "decimals", new DataBlock.FixedWidth(decimals, 64, n),
        "strings", new DataBlock.VariableWidth(offsets, 32, text.toByteArray(), n)));
  }

  static Stats stats(DataBlock block) {
    if (block instanceof DataBlock.VariableWidth vw) {
      long max = 0;
      for (int i = 0; i < vw.numValues(); i++) {
        max = Math.max(max, vw.offset(i + 1) - vw.offset(i));
      }
      return new Stats.VariableWidth(vw.numValues(), 32, vw.offset((int) vw.numValues()), max);
    }
    DataBlock.FixedWidth fw = (DataBlock.FixedWidth) block;
    int bytes = fw.bitsPerValue() / 8;
    long or = 0;
    long runs = 0;
    long prev = 0;
    for (int i = 0; i < fw.numValues(); i++) {
      long v = bytes == 8 ? LittleEndian.getLong(fw.data(), 8 * i) : LittleEndian.getInt(fw.data(), 4 * i) & 0xFFFF_FFFFL;
      or |= v;
      if (i == 0 || v != prev) {
        runs++;
      }
      prev = v;
    }
    return new Stats.FixedWidth(fw.numValues(), fw.bitsPerValue(), 64 - Long.numberOfLeadingZeros(or), runs, fw.data().length);
  }

  /** A writer's context reduced to what proposals read: inner offers come from the first plugin that makes one. */
  record Ctx(List<CodecPlugin> plugins, Stats stats, FieldOptions options, FileVersion version) implements ProposalContext {
    private <R> Optional<Proposal<R>> first(DataBlock block, Function<CodecPlugin, Optional<Proposal<R>>> ask) {
      for (CodecPlugin p : plugins) {
        Optional<Proposal<R>> o = ask.apply(p);
        if (o.isPresent()) {
          return o;
        }
      }
      return Optional.empty();
    }

    private Ctx inner(DataBlock block) {
      return new Ctx(plugins, DecompressorSeeds.stats(block), FieldOptions.DEFAULT, version);
    }

    @Override
    public Optional<Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock block) {
      return first(block, p -> p.proposeMiniBlock(block, inner(block)));
    }

    @Override
    public Optional<Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock block) {
      return first(block, p -> p.proposePerValue(block, inner(block)));
    }

    @Override
    public Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock block) {
      return first(block, p -> p.proposeBlock(block, inner(block)));
    }
  }
}
