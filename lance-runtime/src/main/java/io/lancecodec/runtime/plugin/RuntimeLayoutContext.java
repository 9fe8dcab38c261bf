package io.lancecodec.runtime.plugin;

import com.google.protobuf.Message;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.Compressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import io.lancecodec.spi.layout.LayoutContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The runtime's side of the layout contract: asks every codec plugin for a proposal and takes
 * the smallest estimate (plugins are sorted by name and only a strictly smaller estimate
 * replaces the current best, so ties are deterministic).
 */
public final class RuntimeLayoutContext implements LayoutContext {
  private static final System.Logger LOG = System.getLogger(RuntimeLayoutContext.class.getName());
  private final Plugins registry;
  private final FileVersion version;
  private final io.lancecodec.spi.layout.PageCache cache;
  private final java.util.function.ToLongFunction<byte[]> external;
  /**
   * Blocks whose statistics a layout read or handed over in this page, and those statistics: the
   * page's values, a dictionary's indices and, in 2.3, those indices narrowed, so three slots (with
   * two, the narrowed indices pushed out the values, which the page then compresses again).
   */
  private final DataBlock[] keptBlocks = new DataBlock[3];
  private final Stats[] keptStats = new Stats[3];
  private int nextKept;

  /** A writer's context: {@code external} writes blob values to the file. */
  public RuntimeLayoutContext(Plugins registry, FileVersion version, java.util.function.ToLongFunction<byte[]> external) {
    this.registry = registry;
    this.version = version;
    this.cache = io.lancecodec.spi.layout.PageCache.NONE;
    this.external = external;
  }

  /** A reader's context, keeping bulky decoded page state in {@code cache}. */
  public RuntimeLayoutContext(Plugins registry, FileVersion version, io.lancecodec.spi.layout.PageCache cache) {
    this.registry = registry;
    this.version = version;
    this.cache = cache;
    this.external = null;
  }

  @Override
  public long writeExternal(byte[] bytes) {
    if (external == null) {
      throw LanceCodecException.internal("a reader's layout context writes nothing");
    }
    return external.applyAsLong(bytes);
  }

  @Override
  public io.lancecodec.spi.layout.PageCache cache() {
    return cache;
  }

  @Override
  public FileVersion version() {
    return version;
  }

  @Override
  public Stats stats(DataBlock values) {
    Stats kept = kept(values);
    if (kept != null) {
      return kept;
    }
    Stats s = Stats.of(values);
    keep(values, s);
    return s;
  }

  /** Equal statistics, where {@code kept} may leave out the group widths ({@link LayoutContext#keepStats}). */
  private static boolean sameCounts(Stats kept, Stats counted) {
    return kept instanceof Stats.FixedWidth k && k.groupWidths() == null && counted instanceof Stats.FixedWidth c
        ? k.equals(c.withoutGroupWidths())
        : kept.equals(counted);
  }

  @Override
  public void keepStats(DataBlock values, Stats stats) {
    assert sameCounts(stats, Stats.of(values)) : "kept statistics " + stats + " are not those of the block, " + Stats.of(values);
    keep(values, stats);
  }

  // synchronized: a layout may compress one page's two candidates on two cores, each reading
  // and keeping statistics (a block and its statistics are read and written as a pair)
  private synchronized void keep(DataBlock values, Stats stats) {
    for (int k = 0; k < keptBlocks.length; k++) {
      if (keptBlocks[k] == values) {
        keptStats[k] = stats;
        return;
      }
    }
    keptBlocks[nextKept] = values;
    keptStats[nextKept] = stats;
    nextKept = (nextKept + 1) % keptBlocks.length;
  }

  private Stats statsOf(DataBlock values) {
    Stats kept = kept(values);
    return kept != null ? kept : Stats.of(values);
  }

  private synchronized Stats kept(DataBlock values) {
    for (int k = 0; k < keptBlocks.length; k++) {
      if (keptBlocks[k] == values) {
        return keptStats[k];
      }
    }
    return null;
  }

  /**
   * Forgets the statistics kept by {@link #stats} and {@link #keepStats}: the writer calls it
   * after every page, so a block object whose bytes are reused for a later page is never judged
   * by old statistics.
   */
  public synchronized void endPage() {
    java.util.Arrays.fill(keptBlocks, null);
    java.util.Arrays.fill(keptStats, null);
    nextKept = 0;
  }

  @Override
  public MiniBlockCompressed compressMiniBlock(DataBlock values, FieldOptions options) {
    return best(values, options, CodecPlugin::proposeMiniBlock, "mini-block").result();
  }

  @Override
  public MiniBlockCompressed compressMiniBlock(DataBlock values, FieldOptions options, long sizeToBeat) {
    return best(values, options, CodecPlugin::proposeMiniBlock, "mini-block", Shape.WHOLE, sizeToBeat).result();
  }

  @Override
  public MiniBlockCompressed compressMiniBlockFramed(DataBlock values, FieldOptions options, long sizeToBeat, int headerBytes) {
    Proposal<MiniBlockCompressed> best = best(values, options, CodecPlugin::proposeMiniBlock, "mini-block", Shape.WHOLE, sizeToBeat);
    MiniBlockCompressed framed = best.framedResult(headerBytes);
    return framed != null ? framed : best.result();
  }

  @Override
  public Encoded<DataBlock> compressPerValue(DataBlock values, FieldOptions options) {
    return best(values, options, CodecPlugin::proposePerValue, "per-value").result();
  }

  @Override
  public Encoded<byte[]> compressBlock(DataBlock values, FieldOptions options) {
    return best(values, options, CodecPlugin::proposeBlock, "block").result();
  }

  /** 2.3 only: the registry's smallest offer inside the generic grammar ({@link GenericBlocks#encode}). */
  @Override
  public Encoded<byte[]> compressUnsigned(DataBlock.FixedWidth values, FieldOptions options) {
    requireV23();
    return GenericBlocks.encode(registry, values, options);
  }

  @Override
  public BlockDecompressor unsignedBlock(Message encoding, int bitsPerValue) {
    if (bitsPerValue != 32 && bitsPerValue != 64) {
      throw LanceCodecException.internal("generic unsigned blocks are 32 or 64 bits wide, not " + bitsPerValue);
    }
    return GenericBlocks.open(registry.decoders(), encoding, bitsPerValue);
  }

  private void requireV23() {
    if (version != FileVersion.V2_3) {
      throw LanceCodecException.internal("generic unsigned blocks belong to 2.3, this file is " + version);
    }
  }

  @Override
  public BlockCompressor levelsFor(DataBlock levels, long sliceValues) {
    Shape shape = sliceValues > 0 ? new Shape(false, 0, sliceValues) : Shape.WHOLE;
    Compressor<Encoded<byte[]>> c = best(levels, FieldOptions.DEFAULT, CodecPlugin::proposeBlock, "levels", shape, Long.MAX_VALUE).compressor();
    return c::compress;
  }

  /**
   * How the block asked about will be compressed: whole, as one chunk (of rows of {@code rowValues}
   * values each when positive), or in slices of about {@code sliceValues} values.
   */
  private record Shape(boolean oneChunk, long rowValues, long sliceValues) {
    static final Shape WHOLE = new Shape(false, 0, 0);
  }

  /**
   * The context the writer hands {@code plugin} when it proposes for {@code values}: their
   * statistics, the options, and inner offers from every other plugin (not {@code plugin} itself).
   */
  public ProposalContext proposalContext(CodecPlugin plugin, DataBlock values, FieldOptions options) {
    return new Context(values, Stats.of(values), options, Set.of(plugin), Shape.WHOLE, Long.MAX_VALUE);
  }

  /** Asks one plugin for its offer in a context that lets it consult the others. */
  private interface Ask<R> {
    Optional<Proposal<R>> ask(CodecPlugin plugin, DataBlock block, ProposalContext context);
  }

  private <R> Proposal<R> best(DataBlock values, FieldOptions options, Ask<R> ask, String role) {
    return best(values, options, ask, role, Shape.WHOLE, Long.MAX_VALUE);
  }

  /** {@code sizeToBeat}: the caller keeps the result only at most this size (measuring plugins may stop past it). */
  private <R> Proposal<R> best(DataBlock values, FieldOptions options, Ask<R> ask, String role, Shape shape, long sizeToBeat) {
    Optional<Proposal<R>> best = offer(values, null, options, Set.of(), ask, shape, sizeToBeat);
    if (best.isEmpty()) {
      throw LanceCodecException.unsupported(
          "no " + role + " compressor for " + values.getClass().getSimpleName() + " values");
    }
    LOG.log(System.Logger.Level.DEBUG, "{0}: chose {1} ({2} bytes)", role, best.get().codec(), best.get().estimatedBytes());
    return best.get();
  }

  /**
   * The smallest offer of the plugins not already asking further up (a wrapping codec consults
   * the others for its inner data; excluding the whole chain keeps, say, FSST inside General
   * inside FSST from ever recursing); ties keep the earlier name.
   */
  private <R> Optional<Proposal<R>> offer(DataBlock values, FieldOptions options, Set<CodecPlugin> chain, Ask<R> ask) {
    return offer(values, null, options, chain, ask, Shape.WHOLE);
  }

  /** {@code known}: the statistics of {@code values} when the caller has them, else null. */
  private <R> Optional<Proposal<R>> offer(DataBlock values, Stats known, FieldOptions options, Set<CodecPlugin> chain, Ask<R> ask,
      Shape shape) {
    return offer(values, known, options, chain, ask, shape, Long.MAX_VALUE);
  }

  private <R> Optional<Proposal<R>> offer(DataBlock values, Stats known, FieldOptions options, Set<CodecPlugin> chain, Ask<R> ask,
      Shape shape, long sizeToBeat) {
    List<Proposal<R>> all = offers(values, known, options, chain, ask, shape, sizeToBeat);
    return all.isEmpty() ? Optional.empty() : Optional.of(all.get(0));
  }

  /**
   * Every offer, smallest first; ties keep the plugins' name order. Plugins that measure by
   * compressing are asked last, told the smallest offer so far, so that they can stop early (ALP
   * encoded every page of a column that run-length encoding shrinks 90 times). {@code sizeToBeat}:
   * they are told the smaller of it and the smallest offer so far; an offer of one that stopped
   * past it loses to the caller's alternative either way ({@code Long.MAX_VALUE}: no alternative).
   */
  private <R> List<Proposal<R>> offers(DataBlock values, Stats known, FieldOptions options, Set<CodecPlugin> chain, Ask<R> ask,
      Shape shape, long sizeToBeat) {
    Stats stats = known != null ? known : statsOf(values);
    List<CodecPlugin> plugins = registry.codecs();
    // each offer with its plugin's place in name order, which breaks ties whatever the asking order
    List<Map.Entry<Proposal<R>, Integer>> ranked = new ArrayList<>();
    long smallest = sizeToBeat;
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < plugins.size(); i++) {
        CodecPlugin p = plugins.get(i);
        if (p.measuresOffers() != (pass == 1) || chain.contains(p) || !p.fileVersions().contains(version)) {
          continue;
        }
        Set<CodecPlugin> inner = new HashSet<>(chain);
        inner.add(p);
        Optional<Proposal<R>> offer = ask.ask(p, values, new Context(values, stats, options, inner, shape, smallest));
        if (offer.isPresent()) {
          ranked.add(Map.entry(offer.get(), i));
          if (pass == 0) {
            smallest = Math.min(smallest, offer.get().estimatedBytes());
          }
        }
      }
    }
    ranked.sort(Comparator.<Map.Entry<Proposal<R>, Integer>>comparingLong(e -> e.getKey().estimatedBytes())
        .thenComparing(Map.Entry::getValue));
    List<Proposal<R>> out = new ArrayList<>(ranked.size());
    for (Map.Entry<Proposal<R>, Integer> e : ranked) {
      out.add(e.getKey());
    }
    return out;
  }

  /**
   * Offers for the leaf values of a fixed-size list's rows, from every plugin (the built-in Flat
   * included: the list's owner asks, but the leaf is another block), each for one chunk.
   */
  interface LeafOffers {
    /** {@code rowValues}: 0 for one chunk of rows, else the values of each row of a page compressed row by row. */
    List<Proposal<MiniBlockCompressed>> leafOffers(DataBlock.FixedWidth leaf, long rowValues);
  }

  /**
   * The context handed to one plugin; its inner offers exclude that plugin. In 2.3 it also encodes
   * families of generic unsigned blocks (the built-in Variable's offsets) with every 2.3 plugin.
   */
  private final class Context implements ProposalContext, GenericBlocks.FamilyEncoder, LeafOffers {
    /** The values this context was made for: an inner offer for the same block reuses {@link #stats}. */
    private final DataBlock values;
    private final Stats stats;
    private final FieldOptions options;
    private final Set<CodecPlugin> chain;
    private final Shape shape;
    private final long sizeToBeat;

    Context(DataBlock values, Stats stats, FieldOptions options, Set<CodecPlugin> chain, Shape shape, long sizeToBeat) {
      this.values = values;
      this.stats = stats;
      this.options = options;
      this.chain = chain;
      this.shape = shape;
      this.sizeToBeat = sizeToBeat;
    }

    @Override
    public boolean oneChunk() {
      return shape.oneChunk();
    }

    @Override
    public long sizeToBeat() {
      return sizeToBeat;
    }

    @Override
    public long rowValues() {
      return shape.rowValues();
    }

    @Override
    public long sliceValues() {
      return shape.sliceValues();
    }

    @Override
    public List<Proposal<MiniBlockCompressed>> leafOffers(DataBlock.FixedWidth leaf, long rowValues) {
      List<Proposal<MiniBlockCompressed>> out = new ArrayList<>();
      for (Proposal<MiniBlockCompressed> p : offers(leaf, null, options, Set.of(), CodecPlugin::proposeMiniBlock, new Shape(true, rowValues, 0), Long.MAX_VALUE)) {
        // the rule every one-chunk offer must keep (a page offered row by row is checked row by
        // row when compressed); a plugin that breaks it only loses its place
        if (rowValues > 0 || p.result().chunks().size() == 1) {
          out.add(p);
        }
      }
      return out;
    }

    @Override
    public Stats stats() {
      return stats;
    }

    @Override
    public FieldOptions options() {
      return options;
    }

    @Override
    public FileVersion version() {
      return version;
    }

    @Override
    public Optional<Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock block) {
      return offer(block, known(block), options, chain, CodecPlugin::proposeMiniBlock, shape);
    }

    @Override
    public Optional<Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock block) {
      return offer(block, known(block), options, chain, CodecPlugin::proposePerValue, Shape.WHOLE);
    }

    @Override
    public Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock block) {
      // the block asked about, wrapped, is sliced as before; any other is compressed whole
      Shape inner = block == values && shape.sliceValues() > 0 ? shape : Shape.WHOLE;
      return offer(block, known(block), options, chain, CodecPlugin::proposeBlock, inner);
    }

    /** This context's statistics when {@code block} is its own values (a wrapper asking for the same block), else null. */
    private Stats known(DataBlock block) {
      return block == values ? stats : null;
    }

    @Override
    public java.util.List<Encoded<byte[]>> encodeFamily(java.util.List<DataBlock.FixedWidth> family,
        java.util.function.Predicate<io.lancecodec.format.pb.v23.CompressiveEncoding> allowed,
        java.util.function.ToLongFunction<java.util.List<Encoded<byte[]>>> cost) {
      requireV23();
      return GenericBlocks.encodeFamily(registry, family, options, allowed, cost);
    }
  }

  @Override
  public MiniBlockDecompressor miniBlock(Message encoding) {
    return registry.decoders().miniBlock(encoding);
  }

  @Override
  public BlockDecompressor block(Message encoding) {
    return registry.decoders().block(encoding);
  }

  @Override
  public PerValueDecompressor perValue(Message encoding) {
    return registry.decoders().perValue(encoding);
  }

  @Override
  public EncodingSummary describe(Message encoding) {
    return registry.decoders().describe(encoding);
  }
}
