package io.lancecodec.codec.fsst;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v21.Fsst;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueCompressor;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * FSST for string and binary pages of the 2.1/2.2 and 2.3 grammars, in mini-block and full-zip
 * pages; 2.3 stores the same symbol table and codes in its own {@code Fsst} message, over
 * {@code Variable} only.
 * Proposes under the reference's conditions (longest value of at least 5 bytes and at least
 * 32 KiB of strings and offsets, or {@code lance-encoding:compression=fsst}); the estimate comes
 * from compressing a sample with the learnt table and includes the 2312-byte table, so the
 * runtime keeps plain Variable where FSST would not pay.
 */
public final class FsstPlugin implements CodecPlugin {
  private static final System.Logger LOG = System.getLogger(FsstPlugin.class.getName());

  /** Per-value pages with values above this size get general compression in the reference. */
  private static final long MAX_PER_VALUE_LENGTH = 32 * 1024;

  @Override
  public String name() {
    return "fsst";
  }

  @Override
  public Set<FileVersion> fileVersions() {
    return EnumSet.of(FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3);
  }

  @Override
  public Set<Class<? extends Message>> decodes() {
    return Set.of(Fsst.class, io.lancecodec.format.pb.v23.Fsst.class);
  }

  /**
   * The reference's rule: explicitly requested, or long enough values on a big enough page. In
   * a full-zip page a zstd or lz4 hint also leaves FSST in the running: the reference then
   * compresses every value on its own with zstd, which on short strings ends up larger than
   * plain (mail subjects: 61.75 against 41.3 B/value), and the runtime keeps whichever of
   * FSST, per-value zstd and plain is smallest.
   */
  private static boolean wanted(DataBlock.VariableWidth vw, ProposalContext context, boolean perValue) {
    if (context.options().compressionNone()) {
      return false;
    }
    Optional<String> scheme = context.options().compression();
    if (scheme.isPresent()) {
      if (scheme.get().equals("fsst")) {
        return true;
      }
      if (!perValue || !hinted(context)) {
        return false;
      }
    }
    Stats.VariableWidth stats = (Stats.VariableWidth) context.stats();
    long pageBytes = stats.dataBytes() + (vw.numValues() + 1) * (vw.bitsPerOffset() / 8);
    return stats.maxValueBytes() >= FsstFormat.MIN_MAX_VALUE_LENGTH && pageBytes >= FsstFormat.MIN_COMPRESS_BYTES;
  }

  /** A general-compression hint the reference honours (zstd, lz4). */
  private static boolean hinted(ProposalContext context) {
    return context.options().compression().filter(s -> s.equals("zstd") || s.equals("lz4")).isPresent();
  }

  @Override
  public Optional<Proposal<MiniBlockCompressed>> proposeMiniBlock(DataBlock block, ProposalContext context) {
    if (!(block instanceof DataBlock.VariableWidth vw) || vw.numValues() == 0 || !wanted(vw, context, false)) {
      return Optional.empty();
    }
    FsstPage page = FsstPage.plan(vw);
    Optional<Proposal<MiniBlockCompressed>> inner = context.innerMiniBlock(page.compressedSample);
    if (inner.isEmpty() || context.version() == FileVersion.V2_3 && !isVariable23(inner.get().result().encoding())) {
      return Optional.empty();
    }
    long estimate = page.estimatedDataBytes + offsetBytes(vw, page, inner.get(), context.version()) + FsstFormat.TABLE_BYTES;
    LOG.log(System.Logger.Level.DEBUG, "fsst mini-block: {0} symbols, {1} bytes estimated for {2} string bytes",
        page.table.size(), estimate, context.stats().dataBytes());
    FsstMiniBlockCompressor c = new FsstMiniBlockCompressor(context, inner.get().compressor());
    return Optional.of(Proposal.deferred("fsst", estimate, c, () -> c.compress(page.encoder(), vw)));
  }

  /**
   * The codes' offsets as stored: whole 2.1/2.2 offsets; in 2.3 whatever the inner offer's generic
   * offsets cost per value on the sample (bit-packed offsets of short codes take a fraction of 32
   * bits: counting them whole overstated FSST's 2.3 pages by up to 2.2x, found by the codec contract).
   */
  private static long offsetBytes(DataBlock.VariableWidth vw, FsstPage page, Proposal<MiniBlockCompressed> inner, FileVersion version) {
    long whole = (vw.numValues() + 1) * (vw.bitsPerOffset() / 8);
    DataBlock.VariableWidth sample = page.compressedSample;
    if (version != FileVersion.V2_3 || sample.numValues() == 0) {
      return whole;
    }
    long sampleCodes = sample.offset((int) sample.numValues()) - sample.offset(0);
    long perSample = Math.max(0, inner.estimatedBytes() - sampleCodes);
    return Math.min(whole, (long) Math.ceil((double) perSample * vw.numValues() / sample.numValues()));
  }

  @Override
  public Optional<Proposal<Encoded<DataBlock>>> proposePerValue(DataBlock block, ProposalContext context) {
    if (!(block instanceof DataBlock.VariableWidth vw) || vw.numValues() == 0 || !wanted(vw, context, true)) {
      return Optional.empty();
    }
    Stats.VariableWidth stats = (Stats.VariableWidth) context.stats();
    if (stats.maxValueBytes() > MAX_PER_VALUE_LENGTH && stats.dataBytes() >= FsstFormat.MIN_COMPRESS_BYTES) {
      return Optional.empty();
    }
    FsstPage page = FsstPage.plan(vw);
    long estimate = page.estimatedDataBytes + FsstFormat.TABLE_BYTES;
    if (context.version() == FileVersion.V2_3) {
      // 2.3's per-value FSST holds plain Variable codes (docs/wire/compression-2.3.md)
      FsstPerValueCompressor c = new FsstPerValueCompressor(null, PLAIN_VARIABLE_23);
      return Optional.of(Proposal.deferred("fsst", estimate, c, () -> c.compress(page.encoder(), vw)));
    }
    if (hinted(context)) {
      // The reference decodes the values under a per-value FSST node as plain Variable whatever
      // the node says, so with a hint (whose per-value zstd would otherwise be offered as the
      // inner compressor) the compressed values stay plain.
      FsstPerValueCompressor c = new FsstPerValueCompressor(null, PLAIN_VARIABLE);
      return Optional.of(Proposal.deferred("fsst", estimate, c, () -> c.compress(page.encoder(), vw)));
    }
    Optional<Proposal<Encoded<DataBlock>>> inner = context.innerPerValue(page.compressedSample);
    if (inner.isEmpty()) {
      return Optional.empty();
    }
    LOG.log(System.Logger.Level.DEBUG, "fsst per-value: {0} symbols, {1} bytes estimated for {2} string bytes",
        page.table.size(), estimate, context.stats().dataBytes());
    FsstPerValueCompressor c = new FsstPerValueCompressor(context, inner.get().compressor());
    return Optional.of(Proposal.deferred("fsst", estimate, c, () -> c.compress(page.encoder(), vw)));
  }

  /** Variable-width values kept as they are: {@code variable(flat(offset bits))}. */
  static final PerValueCompressor PLAIN_VARIABLE =
      b -> new Encoded<>(
          b,
          io.lancecodec.format.pb.v21.CompressiveEncoding.newBuilder()
              .setVariable(
                  io.lancecodec.format.pb.v21.Variable.newBuilder()
                      .setOffsets(
                          io.lancecodec.format.pb.v21.CompressiveEncoding.newBuilder()
                              .setFlat(
                                  io.lancecodec.format.pb.v21.Flat.newBuilder()
                                      .setBitsPerValue(((DataBlock.VariableWidth) b).bitsPerOffset()))))
              .build());

  /** {@link #PLAIN_VARIABLE} in 2.3's messages. */
  static final PerValueCompressor PLAIN_VARIABLE_23 =
      b -> new Encoded<>(
          b,
          io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder()
              .setVariable(io.lancecodec.format.pb.v23.Variable.newBuilder()
                  .setOffsets(io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder()
                      .setFlat(io.lancecodec.format.pb.v23.Flat.newBuilder()
                          .setBitsPerValue(((DataBlock.VariableWidth) b).bitsPerOffset()))))
              .build());

  private static boolean isVariable23(Message e) {
    return e instanceof io.lancecodec.format.pb.v23.CompressiveEncoding c && c.hasVariable();
  }

  /**
   * A 2.3 Fsst node with its table parsed: the codes must be Variable (the only inner encoding any
   * FSST writer produces; its offsets are checked by Variable's own decoder), the table one that
   * {@link SymbolTable#parse} accepts.
   */
  private static io.lancecodec.format.pb.v23.Fsst checked23(io.lancecodec.format.pb.v23.Fsst fsst) {
    if (!fsst.hasValues()) {
      throw LanceCodecException.corrupt("fsst: encoding has no inner values encoding");
    }
    if (!fsst.getValues().hasVariable()) {
      throw LanceCodecException.corrupt("fsst: 2.3 codes are Variable, not "
          + io.lancecodec.format.UnsignedBlockGrammar.caseName(fsst.getValues()) + ": unsupported nesting");
    }
    return fsst;
  }

  @Override
  public MiniBlockDecompressor openMiniBlock(Message node, Decoders children) {
    if (node instanceof io.lancecodec.format.pb.v23.Fsst f23) {
      io.lancecodec.format.pb.v23.Fsst fsst = checked23(f23);
      return new FsstMiniBlockDecompressor(
          new FsstDecoder(SymbolTable.parse(fsst.getSymbolTable().toByteArray())), children.miniBlock(fsst.getValues()));
    }
    Fsst fsst = checked(node);
    return new FsstMiniBlockDecompressor(
        new FsstDecoder(SymbolTable.parse(fsst.getSymbolTable().toByteArray())), children.miniBlock(fsst.getValues()));
  }

  @Override
  public PerValueDecompressor openPerValue(Message node, Decoders children) {
    if (node instanceof io.lancecodec.format.pb.v23.Fsst f23) {
      io.lancecodec.format.pb.v23.Fsst fsst = checked23(f23);
      return new FsstPerValueDecompressor(
          new FsstDecoder(SymbolTable.parse(fsst.getSymbolTable().toByteArray())), children.perValue(fsst.getValues()));
    }
    Fsst fsst = checked(node);
    return new FsstPerValueDecompressor(
        new FsstDecoder(SymbolTable.parse(fsst.getSymbolTable().toByteArray())), children.perValue(fsst.getValues()));
  }

  @Override
  public Set<String> compressionSchemes() {
    return Set.of("fsst");
  }

  @Override
  public Optional<EncodingSummary> describe(Message node, Decoders children) {
    if (node instanceof io.lancecodec.format.pb.v23.Fsst f23) {
      return Optional.of(EncodingSummary.of("fsst", "", children.describe(f23.getValues())));
    }
    Fsst fsst = checked(node);
    return Optional.of(EncodingSummary.of("fsst", "", children.describe(fsst.getValues())));
  }

  private Fsst checked(Message node) {
    if (!(node instanceof Fsst fsst)) {
      throw LanceCodecException.unsupported("fsst: cannot open " + node.getDescriptorForType().getName());
    }
    if (!fsst.hasValues()) {
      throw LanceCodecException.corrupt("fsst: encoding has no inner values encoding");
    }
    return fsst;
  }
}
