package io.lancecodec.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.Proposal;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * The contract every codec plugin passes. A codec's test subclasses it in a few lines, naming the
 * plugin, a {@link Host} (the runtime's registry, or {@link Host#standalone}) and the value kinds it
 * compresses; then every version the plugin declares, every kind and every {@link ValueFamily}
 * (under each option set the subclass gives) is offered to the plugin as a mini-block, a block and
 * per-value, and every offer it makes must:
 *
 * <ul>
 *   <li>decode back to the same values, bit for bit, through the host's decoders;</li>
 *   <li>be honest: the bytes offered within {@link #proposalTolerance()} (plus {@link
 *       #proposalSlackBytes()}) of what the result takes stored;</li>
 *   <li>be deterministic: asked again for the same block, the plugin offers the same bytes and encoding;</li>
 *   <li>survive hostile input: truncated, bit-flipped or mis-sized buffers decode to something or
 *       fail with {@link LanceCodecException}, never another exception, a hang or an OOM;</li>
 *   <li>be thread-safe: eight threads proposing and decoding at once get the serial results.</li>
 * </ul>
 *
 * The plugin must offer on at least one case (a contract that never reaches the codec proves
 * nothing), and its registration must agree: {@link ServiceLoader} finds it, its jar's
 * {@code META-INF/services} names it, and its {@code module-info} (when it has one) provides it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class CodecContract {
  /** How a block is offered: as a mini-block page, a whole block, or value by value. */
  public enum Role {
    MINI_BLOCK,
    BLOCK,
    PER_VALUE
  }

  /** One offer the plugin made: where, for which data, and the decoded result to compare. */
  public record Case(FileVersion version, ValueKind kind, ValueFamily family, int optionSet, Role role, DataBlock block,
      Proposal<?> proposal) {
    @Override
    public String toString() {
      return version + " " + kind + " " + family + (optionSet == 0 ? "" : " options#" + optionSet) + " " + role + " ("
          + proposal.codec() + ")";
    }
  }

  private List<Case> cases;
  /** The subclass's host, asked for once: a standalone host builds its decoders each time. */
  private Host host;

  /** The plugin under test, a fresh instance as its jar provides it. */
  protected abstract CodecPlugin plugin();

  /** Where decoders and proposal contexts come from. */
  protected abstract Host host();

  /** The value kinds the codec compresses (the others are not offered). */
  protected abstract Set<ValueKind> kinds();

  private Host hosted() {
    if (host == null) {
      host = host();
    }
    return host;
  }

  /** The file versions to try; by default all the plugin declares. */
  protected Set<FileVersion> versions() {
    return plugin().fileVersions();
  }

  /**
   * The field options to propose under, for one version and kind; by default the kind's plain
   * options. A codec selected by a key ({@code compression=zstd}) returns options with it.
   */
  protected List<FieldOptions> optionSets(FileVersion version, ValueKind kind) {
    return List.of(kind.defaultOptions());
  }

  /** Offered bytes may differ from stored bytes by this fraction of the stored bytes ... */
  protected double proposalTolerance() {
    return 0.10;
  }

  /** ... plus this many bytes (headers an estimate leaves out). */
  protected long proposalSlackBytes() {
    return 64;
  }

  protected long seed() {
    return 42;
  }

  /** Every offer the plugin makes over the matrix, each compressed once; computed on first use. */
  protected final List<Case> cases() {
    if (cases == null) {
      cases = collect();
    }
    return cases;
  }

  private List<Case> collect() {
    CodecPlugin plugin = plugin();
    List<Case> out = new ArrayList<>();
    // in enum order whatever sets the subclass returns (EnumSet.copyOf refuses empty ones)
    for (FileVersion version : new java.util.TreeSet<>(versions())) {
      for (ValueKind kind : new java.util.TreeSet<>(kinds())) {
        List<FieldOptions> sets = optionSets(version, kind);
        for (int o = 0; o < sets.size(); o++) {
          for (ValueFamily family : ValueFamily.values()) {
            Optional<DataBlock> block = family.block(kind, seed());
            if (block.isEmpty()) {
              continue;
            }
            int set = o;
            for (Role role : Role.values()) {
              propose(plugin, role, block.get(), sets.get(o), version)
                  .ifPresent(p -> out.add(new Case(version, kind, family, set, role, block.get(), p)));
            }
          }
        }
      }
    }
    return out;
  }

  /** The plugin's offer for {@code block} in {@code role}, asked as a writer of {@code version} asks. */
  private Optional<? extends Proposal<?>> propose(CodecPlugin plugin, Role role, DataBlock block, FieldOptions options,
      FileVersion version) {
    var context = hosted().context(plugin, block, options, version);
    return switch (role) {
      case MINI_BLOCK -> plugin.proposeMiniBlock(block, context);
      case BLOCK -> plugin.proposeBlock(block, context);
      case PER_VALUE -> plugin.proposePerValue(block, context);
    };
  }

  /** A fresh offer for the case's block, as the writer asks for every page. */
  protected final Proposal<?> proposeAgain(Case c) {
    return propose(plugin(), c.role(), c.block(), optionSets(c.version(), c.kind()).get(c.optionSet()), c.version())
        .orElseThrow(() -> new AssertionError(c + ": offered once, declined when asked again"));
  }

  /** The values {@code result} (an offer's result) decodes to, through a decoder opened for it. */
  protected final DataBlock decode(Case c, Object result) {
    return decodeWith(c, open(c, result), result);
  }

  /** The host's decoder for {@code result}'s encoding: a mini-block, block or per-value decompressor. */
  private Object open(Case c, Object result) {
    return switch (c.role()) {
      case MINI_BLOCK -> hosted().decoders().miniBlock(((MiniBlockCompressed) result).encoding());
      case BLOCK -> hosted().decoders().block(((Encoded<?>) result).encoding());
      case PER_VALUE -> hosted().decoders().perValue(((Encoded<?>) result).encoding());
    };
  }

  private static DataBlock decodeWith(Case c, Object decoder, Object result) {
    return switch (c.role()) {
      case MINI_BLOCK -> MiniBlockChunks.decodeAll((MiniBlockCompressed) result, (io.lancecodec.spi.MiniBlockDecompressor) decoder);
      case BLOCK -> ((io.lancecodec.spi.BlockDecompressor) decoder).decompress((byte[]) ((Encoded<?>) result).data(), c.block().numValues());
      case PER_VALUE -> ((io.lancecodec.spi.PerValueDecompressor) decoder).decompress((DataBlock) ((Encoded<?>) result).data(), null);
    };
  }

  /** Bytes the result takes where it is stored (per value: the values' bytes). */
  protected final long storedBytes(Case c, Object result) {
    return switch (c.role()) {
      case MINI_BLOCK -> MiniBlocks.storedBytes((MiniBlockCompressed) result, c.version());
      case BLOCK -> ((byte[]) ((Encoded<?>) result).data()).length;
      case PER_VALUE -> {
        DataBlock d = (DataBlock) ((Encoded<?>) result).data();
        // the values' bytes: how full zip frames them (lengths, repetition index) is the layout's
        yield d instanceof DataBlock.FixedWidth fw ? fw.usedBytes()
            : d instanceof DataBlock.VariableWidth vw ? vw.offset((int) vw.numValues()) - vw.offset(0)
            : -1;
      }
    };
  }

  @Test
  void offersOnSomething() {
    assertFalse(cases().isEmpty(), plugin().name() + " made no offer for " + kinds() + " in " + versions()
        + ": the contract never reached the codec (wrong kinds or options?)");
  }

  @TestFactory
  Stream<DynamicTest> roundTrips() {
    return cases().stream().map(c -> DynamicTest.dynamicTest(c + " round trip",
        () -> Values.assertSame(c.block(), decode(c, c.proposal().result()), c.toString())));
  }

  @TestFactory
  Stream<DynamicTest> proposalsAreHonest() {
    return cases().stream().map(c -> DynamicTest.dynamicTest(c + " offered size", () -> {
      long stored = storedBytes(c, c.proposal().result());
      long offered = c.proposal().estimatedBytes();
      double allowed = stored * proposalTolerance() + proposalSlackBytes();
      assertTrue(Math.abs(offered - stored) <= allowed,
          c + ": offered " + offered + " bytes, stores " + stored + " (allowed difference " + (long) allowed + ")");
    }));
  }

  /** Asked again for the same block, the plugin offers the same bytes (files are reproducible). */
  @TestFactory
  Stream<DynamicTest> deterministic() {
    return cases().stream().map(c -> DynamicTest.dynamicTest(c + " deterministic",
        () -> assertSameResult(c, c.proposal().result(), proposeAgain(c).result())));
  }

  private static void assertSameResult(Case c, Object a, Object b) {
    if (a instanceof MiniBlockCompressed x && b instanceof MiniBlockCompressed y) {
      assertEquals(x.encoding(), y.encoding(), c + ": encoding");
      assertEquals(x.buffers().size(), y.buffers().size(), c + ": buffer count");
      for (int i = 0; i < x.buffers().size(); i++) {
        assertTrue(Arrays.equals(x.buffers().get(i), y.buffers().get(i)), c + ": buffer " + i + " differs");
      }
      assertEquals(x.chunks().size(), y.chunks().size(), c + ": chunk count");
      for (int i = 0; i < x.chunks().size(); i++) {
        assertTrue(Arrays.equals(x.chunks().get(i).bufferSizes(), y.chunks().get(i).bufferSizes()), c + ": chunk " + i + " sizes");
        assertEquals(x.chunks().get(i).logNumValues(), y.chunks().get(i).logNumValues(), c + ": chunk " + i + " values");
      }
    } else if (a instanceof Encoded<?> x && b instanceof Encoded<?> y) {
      assertEquals(x.encoding(), y.encoding(), c + ": encoding");
      if (x.data() instanceof byte[] xb) {
        assertTrue(Arrays.equals(xb, (byte[]) y.data()), c + ": bytes differ");
      } else {
        Values.assertSame((DataBlock) x.data(), (DataBlock) y.data(), c + ": per-value data");
      }
    } else {
      fail(c + ": results of different kinds");
    }
  }

  /**
   * Damaged input: each buffer cut short at a few places, bits flipped (seeded), and a mini-block
   * chunk's value count off by one. Every attempt must return the values asked for or throw
   * {@link LanceCodecException}, within 10 s.
   */
  @TestFactory
  Stream<DynamicTest> hostileInput() {
    return cases().stream().filter(c -> c.block().numValues() > 0 && c.family() != ValueFamily.LARGE)
        .map(c -> DynamicTest.dynamicTest(c + " hostile input", () -> {
          Random rnd = new Random(seed());
          for (Object damaged : damage(c, c.proposal().result(), rnd)) {
            Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
              try {
                decode(c, damaged);
              } catch (LanceCodecException expected) {
                // the one allowed failure
              } catch (Throwable t) {
                throw new AssertionError(c + ": damaged input escaped as " + t.getClass().getName() + ": " + t.getMessage(), t);
              }
            });
          }
        }));
  }

  private static List<Object> damage(Case c, Object result, Random rnd) {
    List<Object> out = new ArrayList<>();
    switch (c.role()) {
      case MINI_BLOCK -> {
        MiniBlockCompressed m = (MiniBlockCompressed) result;
        for (int b = 0; b < m.buffers().size(); b++) {
          byte[] buffer = chunkBuffer(m, b);
          for (byte[] bad : damaged(buffer, buffer.length, rnd)) {
            out.add(firstChunk(m, b, bad, 0));
          }
        }
        // the intact chunk read as holding one value more, and one fewer
        out.add(firstChunk(m, 0, chunkBuffer(m, 0), 1));
        if (firstChunk(m, 0, chunkBuffer(m, 0), 0).numValues() > 1) {
          out.add(firstChunk(m, 0, chunkBuffer(m, 0), -1));
        }
      }
      case BLOCK -> {
        Encoded<?> e = (Encoded<?>) result;
        byte[] data = (byte[]) e.data();
        for (byte[] bad : damaged(data, data.length, rnd)) {
          out.add(new Encoded<>(bad, e.encoding()));
        }
      }
      case PER_VALUE -> {
        Encoded<?> e = (Encoded<?>) result;
        // per value the lengths are the layout's: only the bytes are damaged, never cut
        if (e.data() instanceof DataBlock.VariableWidth vw) {
          for (byte[] bad : flipped(vw.data(), vw.data().length, rnd)) {
            out.add(new Encoded<>(new DataBlock.VariableWidth(vw.offsets(), vw.bitsPerOffset(), bad, vw.numValues()), e.encoding()));
          }
        } else if (e.data() instanceof DataBlock.FixedWidth fw) {
          for (byte[] bad : flipped(fw.data(), fw.usedBytes(), rnd)) {
            out.add(new Encoded<>(new DataBlock.FixedWidth(bad, fw.bitsPerValue(), fw.numValues()), e.encoding()));
          }
        }
      }
    }
    return out;
  }

  /** {@code data} cut short (to nothing, half, all but its last byte) and bit-flipped. */
  private static List<byte[]> damaged(byte[] data, int len, Random rnd) {
    List<byte[]> out = new ArrayList<>();
    for (int cut : new int[] {0, len / 2, len - 1}) {
      if (cut >= 0 && cut < len) {
        out.add(Arrays.copyOf(data, cut));
      }
    }
    out.addAll(flipped(data, len, rnd));
    return out;
  }

  /** Sixteen copies of {@code data}, each with one random bit of its first {@code len} bytes flipped. */
  private static List<byte[]> flipped(byte[] data, int len, Random rnd) {
    List<byte[]> out = new ArrayList<>();
    for (int k = 0; k < 16 && len > 0; k++) {
      byte[] copy = data.clone();
      copy[rnd.nextInt(len)] ^= (byte) (1 << rnd.nextInt(8));
      out.add(copy);
    }
    return out;
  }

  /** Buffer {@code b} of the first chunk, copied. */
  private static byte[] chunkBuffer(MiniBlockCompressed m, int b) {
    return Arrays.copyOf(m.buffers().get(b), m.chunks().get(0).bufferSizes()[b]);
  }

  /**
   * A one-chunk page: the first chunk of {@code m} with buffer {@code b} replaced, read as holding
   * {@code extraValues} more values than it does.
   */
  private static MiniBlockCompressed firstChunk(MiniBlockCompressed m, int b, byte[] replacement, int extraValues) {
    List<byte[]> buffers = new ArrayList<>();
    int[] sizes = m.chunks().get(0).bufferSizes().clone();
    for (int i = 0; i < m.buffers().size(); i++) {
      buffers.add(i == b ? replacement : chunkBuffer(m, i));
    }
    sizes[b] = replacement.length;
    long values = (m.chunks().size() == 1 ? m.numValues() : 1L << m.chunks().get(0).logNumValues()) + extraValues;
    return new MiniBlockCompressed(buffers, List.of(new io.lancecodec.spi.MiniBlockChunk(sizes, 0)), values, m.encoding());
  }

  /**
   * Eight threads propose, compress and decode every case at once, sharing the plugin and one
   * decompressor per case (the SPI makes both thread-safe; a proposal and its compressor belong to
   * the thread that asked), and must get what one thread got.
   */
  @Test
  void threadSafe() throws Exception {
    List<Case> sample = cases().stream().filter(c -> c.family() != ValueFamily.LARGE).limit(24).toList();
    Assumptions.assumeFalse(sample.isEmpty(), "no offers to share between threads");
    List<Object> decoders = new ArrayList<>();
    for (Case c : sample) {
      decoders.add(open(c, c.proposal().result()));
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int start = t;
        running.add(pool.submit(() -> {
          for (int i = 0; i < sample.size(); i++) {
            int k = (i + start) % sample.size();
            Case c = sample.get(k);
            Object result = proposeAgain(c).result();
            assertSameResult(c, c.proposal().result(), result);
            Values.assertSame(c.block(), decodeWith(c, decoders.get(k), result), c + " on thread " + start);
          }
          return null;
        }));
      }
      for (Future<?> f : running) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** The plugin's declarations are well formed, and every way of registering it agrees. */
  @Test
  void registration() throws IOException, URISyntaxException {
    CodecPlugin plugin = plugin();
    Class<?> type = plugin.getClass();
    assertTrue(plugin.name().matches("[a-z][a-z0-9-]*"), "plugin name '" + plugin.name() + "' is not lower-case-with-dashes");
    assertFalse(plugin.version() == null || plugin.version().isBlank(), "plugin version is blank");
    assertEquals(CodecPlugin.SPI_VERSION, plugin.spiVersion(), "SPI version");
    assertFalse(plugin.fileVersions().isEmpty(), "declares no file version");
    assertFalse(plugin.decodes().isEmpty() && plugin.extensions().isEmpty(), "decodes no encoding message and no extension codec");
    for (var e : plugin.extensions().entrySet()) {
      assertTrue(io.lancecodec.spi.Extensions.validId(e.getKey()), "extension codec id '" + e.getKey() + "' is not reverse-DNS");
      assertTrue(e.getValue() != null && e.getValue() >= 1, "extension codec " + e.getKey() + " version " + e.getValue());
    }
    assertTrue(plugin.compressionSchemes().containsAll(plugin.chunkedSchemes()), "chunked schemes must be compression schemes");

    boolean found;
    try {
      found = ServiceLoader.load(CodecPlugin.class, type.getClassLoader()).stream().anyMatch(p -> p.type() == type);
    } catch (java.util.ServiceConfigurationError e) {
      throw new AssertionError("ServiceLoader cannot load the CodecPlugin providers (public class, public no-argument"
          + " constructor?): " + e.getMessage(), e);
    }
    assertTrue(found, "ServiceLoader does not find " + type.getName());

    URL location = type.getProtectionDomain().getCodeSource().getLocation();
    Path path = Path.of(location.toURI());
    List<String> listed = servicesFile(path);
    assertTrue(listed.contains(type.getName()),
        "META-INF/services/" + CodecPlugin.class.getName() + " in " + path + " does not list " + type.getName() + ": " + listed);

    Set<ModuleReference> modules = ModuleFinder.of(path).findAll();
    Assumptions.assumeFalse(modules.isEmpty(), path + " has no module-info: only the class-path registration applies");
    ModuleDescriptor d = modules.iterator().next().descriptor();
    boolean provides = d.provides().stream().anyMatch(p -> p.service().equals(CodecPlugin.class.getName()) && p.providers().contains(type.getName()));
    assertTrue(provides, "module " + d.name() + " does not provide " + CodecPlugin.class.getName() + " with " + type.getName()
        + " (module-info and META-INF/services disagree)");
  }

  private static List<String> servicesFile(Path location) throws IOException {
    String entry = "META-INF/services/" + CodecPlugin.class.getName();
    byte[] bytes;
    if (java.nio.file.Files.isDirectory(location)) {
      Path f = location.resolve(entry);
      if (!java.nio.file.Files.exists(f)) {
        return List.of();
      }
      bytes = java.nio.file.Files.readAllBytes(f);
    } else {
      try (java.util.jar.JarFile jar = new java.util.jar.JarFile(location.toFile())) {
        var e = jar.getEntry(entry);
        if (e == null) {
          return List.of();
        }
        try (InputStream in = jar.getInputStream(e)) {
          bytes = in.readAllBytes();
        }
      }
    }
    List<String> out = new ArrayList<>();
    for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
      String s = line.replaceAll("#.*", "").strip();
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }
}
