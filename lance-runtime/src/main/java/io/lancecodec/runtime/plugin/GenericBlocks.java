package io.lancecodec.runtime.plugin;

import com.google.protobuf.Message;
import io.lancecodec.format.UnsignedBlockGrammar;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Constant;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * 2.3 generic unsigned blocks as their containers use them (sparse positions and counts, the
 * generic offsets of variable-width mini-blocks): encoding a u32/u64 sequence, or a family of
 * sequences sharing one descriptor, with the smallest offer of the plugins that speak 2.3; and
 * the container's side of decoding, which checks what no single codec can: the root is in the
 * generic grammar, its width is the container's, the payload arity, and the decoded count.
 *
 * <p>Every offer is checked against the reader's rules before it is taken (its tree opens through
 * {@link #open}, and its payload is empty exactly when the tree is metadata-only), so a plugin
 * that proposes outside the grammar costs its place, never a file nobody can read.
 */
public final class GenericBlocks {
  private GenericBlocks() {}

  /** Encodes families of sequences for a plugin while it proposes (the runtime's proposal contexts implement it). */
  interface FamilyEncoder {
    /**
     * One descriptor for every member of {@code family} and each member's payload, from the
     * offer {@code cost} finds cheapest among those whose root {@code allowed} admits; null when
     * no plugin offers one.
     */
    List<Encoded<byte[]>> encodeFamily(
        List<DataBlock.FixedWidth> family, Predicate<CompressiveEncoding> allowed, ToLongFunction<List<Encoded<byte[]>>> cost);
  }

  /** The empty sequence: Constant without a value, no payload (the generic block contract). */
  static CompressiveEncoding empty() {
    return CompressiveEncoding.newBuilder().setConstant(Constant.getDefaultInstance()).build();
  }

  private static int checkWidth(DataBlock.FixedWidth values) {
    int bits = values.bitsPerValue();
    if (bits != 32 && bits != 64) {
      throw LanceCodecException.internal("generic unsigned block of " + bits + "-bit values (expected 32 or 64)");
    }
    return bits;
  }

  /** {@code values} encoded by the smallest valid offer (ties: the plugin whose name sorts first). */
  static Encoded<byte[]> encode(Plugins registry, DataBlock.FixedWidth values, FieldOptions options) {
    int bits = checkWidth(values);
    if (values.numValues() == 0) {
      return new Encoded<>(new byte[0], empty());
    }
    List<DataBlock.FixedWidth> family = List.of(values);
    for (Proposal<Encoded<byte[]>> p : offers(registry, family, options)) {
      Encoded<byte[]> r = p.result();
      if (valid(registry.decoders(), r, bits, e -> true)) {
        return r;
      }
    }
    throw LanceCodecException.internal("no plugin offers a generic unsigned block for " + bits + "-bit values");
  }

  /**
   * One descriptor for all of {@code family} (same width each), with each member's payload: every
   * plugin's offer is measured on the whole family (its compressor applied to every member) and
   * the one of least {@code cost} is kept, ties to the earlier plugin. Null when none qualifies.
   */
  static List<Encoded<byte[]>> encodeFamily(
      Plugins registry,
      List<DataBlock.FixedWidth> family,
      FieldOptions options,
      Predicate<CompressiveEncoding> allowed,
      ToLongFunction<List<Encoded<byte[]>>> cost) {
    if (family.isEmpty()) {
      throw LanceCodecException.internal("an empty family of generic unsigned blocks");
    }
    int bits = checkWidth(family.get(0));
    boolean allEmpty = true;
    for (DataBlock.FixedWidth m : family) {
      if (m.bitsPerValue() != bits) {
        throw LanceCodecException.internal("a family of generic unsigned blocks of mixed widths");
      }
      allEmpty &= m.numValues() == 0;
    }
    if (allEmpty) {
      List<Encoded<byte[]>> out = new ArrayList<>();
      for (int i = 0; i < family.size(); i++) {
        out.add(new Encoded<>(new byte[0], empty()));
      }
      return allowed.test(empty()) ? out : null;
    }
    List<Encoded<byte[]>> best = null;
    long bestCost = Long.MAX_VALUE;
    for (Proposal<Encoded<byte[]>> p : offers(registry, family, options)) {
      List<Encoded<byte[]>> results = new ArrayList<>(family.size());
      results.add(p.result());
      for (int i = 1; i < family.size(); i++) {
        results.add(p.compressor().compress(family.get(i)));
      }
      if (!sameValidDescriptor(registry.decoders(), results, bits, allowed)) {
        continue;
      }
      long c = cost.applyAsLong(results);
      if (c < bestCost) {
        best = results;
        bestCost = c;
      }
    }
    return best;
  }

  private static boolean sameValidDescriptor(
      Decoders decoders, List<Encoded<byte[]>> results, int bits, Predicate<CompressiveEncoding> allowed) {
    Message first = results.get(0).encoding();
    for (Encoded<byte[]> r : results) {
      if (!r.encoding().equals(first)) {
        return false;
      }
    }
    for (Encoded<byte[]> r : results) {
      if (!valid(decoders, r, bits, allowed)) {
        return false;
      }
    }
    return true;
  }

  /** Whether an offer's result is what a reader accepts: a grammar tree of the width, its payload present exactly when read. */
  private static boolean valid(Decoders decoders, Encoded<byte[]> r, int bits, Predicate<CompressiveEncoding> allowed) {
    if (!(r.encoding() instanceof CompressiveEncoding e) || !allowed.test(e)) {
      return false;
    }
    try {
      BlockDecompressor d = open(decoders, e, bits);
      return d.consumesPayload() == (r.data().length > 0);
    } catch (LanceCodecException ex) {
      return false;
    }
  }

  /** Every 2.3 plugin's offer for the family, smallest first; ties keep the registry's name order. */
  private static List<Proposal<Encoded<byte[]>>> offers(Plugins registry, List<DataBlock.FixedWidth> family, FieldOptions options) {
    Stats stats = Stats.of(family.get(0));
    List<DataBlock.FixedWidth> shared = family.size() == 1 ? List.of() : List.copyOf(family);
    List<Proposal<Encoded<byte[]>>> out = new ArrayList<>();
    for (CodecPlugin p : registry.codecs()) {
      if (p.fileVersions().contains(FileVersion.V2_3)) {
        p.proposeBlock(family.get(0), new Context(stats, options, shared)).ifPresent(out::add);
      }
    }
    out.sort(Comparator.comparingLong(Proposal::estimatedBytes));
    return out;
  }

  /**
   * What a plugin sees while proposing a generic block: no inner offers, since the generic
   * grammar's compositions are the plugins' own (General wraps only Flat).
   */
  private record Context(Stats stats, FieldOptions options, List<DataBlock.FixedWidth> family) implements ProposalContext {
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
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock block) {
      return Optional.empty();
    }
  }

  /**
   * The decoder of a generic unsigned block whose container supplies {@code bits} (32 or 64), or
   * 0 when the root's own declared width is the sequence's (variable-width offsets), which must
   * then be 32 or 64. CORRUPT at once for a root outside the grammar or of another width.
   */
  public static BlockDecompressor open(Decoders decoders, Message encoding, int bits) {
    if (!(encoding instanceof CompressiveEncoding e)) {
      throw LanceCodecException.internal("a generic unsigned block needs a 2.3 CompressiveEncoding, got "
          + encoding.getDescriptorForType().getFullName());
    }
    if (bits != 0 && bits != 32 && bits != 64) {
      throw LanceCodecException.internal("generic unsigned blocks are 32 or 64 bits wide, not " + bits);
    }
    if (!UnsignedBlockGrammar.isRoot(e)) {
      throw LanceCodecException.corrupt("generic unsigned block: " + UnsignedBlockGrammar.caseName(e) + " cannot be its root");
    }
    if (e.hasGeneral() && e.getGeneral().hasValues() && !e.getGeneral().getValues().hasFlat()) {
      // General also wraps Variable in other blocks (a dictionary of strings); a sequence is Flat only
      throw LanceCodecException.corrupt("generic unsigned block: general compression wraps only Flat here, not "
          + UnsignedBlockGrammar.caseName(e.getGeneral().getValues()) + ": unsupported nesting");
    }
    BlockDecompressor d = decoders.block(e);
    int declared = d.bitsPerValue();
    if (bits == 0 && declared != 32 && declared != 64) {
      throw LanceCodecException.corrupt("generic unsigned block: its " + UnsignedBlockGrammar.caseName(e)
          + " root declares " + (declared == 0 ? "no width" : declared + "-bit values") + " (expected 32 or 64)");
    }
    if (bits != 0 && declared != 0 && declared != bits) {
      throw LanceCodecException.corrupt("generic unsigned block: its " + UnsignedBlockGrammar.caseName(e) + " root declares "
          + declared + "-bit values in a container of " + bits + "-bit values");
    }
    return new Checked(d, bits == 0 ? declared : bits, UnsignedBlockGrammar.caseName(e));
  }

  /** The container's checks around the root's decoder. */
  private record Checked(BlockDecompressor inner, int bits, String root) implements BlockDecompressor {
    @Override
    public int bitsPerValue() {
      return bits;
    }

    @Override
    public boolean consumesPayload() {
      return inner.consumesPayload();
    }

    @Override
    public long maxBytes(long numValues) {
      return inner.maxBytes(numValues);
    }

    @Override
    public DataBlock decompress(byte[] data, long numValues) {
      if (numValues < 0) {
        throw LanceCodecException.corrupt("generic unsigned block: cardinality " + numValues + " is negative");
      }
      if (!inner.consumesPayload() && data.length != 0) {
        throw LanceCodecException.corrupt("generic unsigned block: metadata-only " + root + " given a payload of " + data.length + " bytes");
      }
      DataBlock out = inner.decompress(data, numValues);
      if (!(out instanceof DataBlock.FixedWidth fw) || fw.numValues() != numValues
          || (numValues > 0 && fw.bitsPerValue() != bits)) {
        throw LanceCodecException.corrupt("generic unsigned block: " + root + " did not decode to " + numValues + " values of " + bits + " bits");
      }
      return numValues == 0 ? new DataBlock.FixedWidth(new byte[0], bits, 0) : fw;
    }
  }
}
