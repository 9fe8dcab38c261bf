package io.lancecodec.codec.bitpack;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.InlineBitpacking;
import io.lancecodec.format.pb.v21.OutOfLineBitpacking;
import io.lancecodec.format.pb.v21.Rle;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Integer codecs of the 2.1/2.2 grammar: InlineBitpacking and RLE for mini-block values,
 * InlineBitpacking (up to 1024 values) and OutOfLineBitpacking for level buffers. Proposals carry
 * exact sizes, so the runtime only picks these when they beat storing values flat. In 2.3 the
 * same mini-block chunks go under 2.3 messages; it provides the generic unsigned block codecs
 * (Range, Delta, bit-packing, RLE, block Dictionary, see {@link Bitpack23}) and the 8/16-bit
 * blocks of levels in their 2.2 forms ({@link Narrow23}).
 */
public final class BitpackPlugin implements CodecPlugin {
  @Override
  public String name() {
    return "bitpack";
  }

  @Override
  public Set<FileVersion> fileVersions() {
    return EnumSet.of(FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3);
  }

  @Override
  public Set<Class<? extends Message>> decodes() {
    return Set.of(InlineBitpacking.class, OutOfLineBitpacking.class, Rle.class,
        io.lancecodec.format.pb.v23.InlineBitpacking.class, io.lancecodec.format.pb.v23.OutOfLineBitpacking.class,
        io.lancecodec.format.pb.v23.Rle.class, io.lancecodec.format.pb.v23.Range.class,
        io.lancecodec.format.pb.v23.Delta.class, io.lancecodec.format.pb.v23.Dictionary.class);
  }

  private static boolean packable(DataBlock block) {
    return block instanceof DataBlock.FixedWidth fw
        && (fw.bitsPerValue() == 8 || fw.bitsPerValue() == 16 || fw.bitsPerValue() == 32 || fw.bitsPerValue() == 64)
        && fw.numValues() > 0;
  }

  /**
   * Bit-packing and RLE, each with the bytes it takes in the page (chunk headers and padding
   * included, as the flat offer counts them), so the runtime keeps whichever is really smaller.
   * Packing widths are per 1024-value chunk. RLE: with {@code lance-encoding:rle-threshold} set,
   * only when runs / values is below it (the spec's rule, so 0 turns RLE off); by default
   * whenever its cheap estimate could beat packing and plain, and then by its exact size, as
   * the reference 7.0.0 does (it run-length encodes hourly pressure at 0.77 runs per value).
   */
  @Override
  public Optional<Proposal<MiniBlockCompressed>> proposeMiniBlock(DataBlock block, ProposalContext context) {
    FieldOptions options = context.options();
    FileVersion version = context.version();
    // 2.3 writes the same chunks under its own messages (docs/wire/compression-2.3.md)
    boolean v23 = version == FileVersion.V2_3;
    if (!packable(block) || options.compressionNone()) {
      return Optional.empty();
    }
    Stats.FixedWidth stats = (Stats.FixedWidth) context.stats();
    DataBlock.FixedWidth fw = (DataBlock.FixedWidth) block;
    int bits = fw.bitsPerValue();
    if (context.oneChunk() && context.rowValues() > 0) {
      // a page of zipped rows, one chunk a row: every group at the page's widest, so the rows are one size
      int width = stats.maxBitWidth();
      long rowValues = context.rowValues();
      if (!v23 || width >= bits || fw.numValues() % rowValues != 0) {
        return Optional.empty();
      }
      long bytes = fw.numValues() / rowValues * ((rowValues + InlineBitpackingCodec.CHUNK - 1) / InlineBitpackingCodec.CHUNK)
          * InlineBitpackingCodec.chunkBytes(bits, width);
      return Optional.of(Proposal.estimated("bitpack", bytes, new InlineBitpackingCodec.OneChunk(width), fw));
    }
    if (context.oneChunk()) {
      // the leaf of a fixed-size list's rows: only 2.3 chunks hold more than one group
      long bytes = v23 ? InlineBitpackingCodec.OneChunk.bytes(fw) : -1;
      return bytes < 0 ? Optional.empty()
          : Optional.of(Proposal.estimated("bitpack", MiniBlocks.pad8(bytes), new InlineBitpackingCodec.OneChunk(0), fw));
    }
    int maxValues = options.miniBlockMaxValues();
    boolean rleAsked = options.rleThreshold().isPresent();
    RleCodec.Compressor rleCompressor = new RleCodec.Compressor(v23, maxValues);
    MiniBlockCompressed rle = null;
    if (!rleAsked && maxValues >= InlineBitpackingCodec.CHUNK) {
      // Pages of long runs (sorted timestamps, dictionary indices): run-length encode first and
      // skip the width pass when RLE cannot lose to any packing the group heads allow.
      long packedAtLeast = InlineBitpackingCodec.storedBytesAtLeast(fw, version);
      if (RleCodec.estimate(stats.runCount(), stats.numValues(), bits) < Math.min(packedAtLeast, fw.usedBytes())) {
        rle = rleCompressor.compress(fw);
        long size = MiniBlocks.storedBytes(rle, version);
        if (size <= packedAtLeast) {
          // the same choice as below: RLE is tried there (its estimate is below both bounds) and
          // wins whether packing is offered (at packedAtLeast bytes or more) or not
          return Optional.of(Proposal.measured("rle", size, rleCompressor, rle));
        }
      }
    }
    // bit-packing's chunks hold 1024 values: a smaller LANCE_MINIBLOCK_MAX_VALUES rules it out
    int[] widths = maxValues < InlineBitpackingCodec.CHUNK ? null : InlineBitpackingCodec.groupWidths(fw, stats);
    long packed = widths == null ? -1 : InlineBitpackingCodec.storedBytes(widths, bits, version);
    Proposal<MiniBlockCompressed> best = packed < 0 ? null
        : Proposal.estimated("bitpack", packed, new InlineBitpackingCodec.Compressor(v23, fw, widths), fw);
    boolean tryRle;
    if (rleAsked) {
      tryRle = stats.runCount() < options.rleThreshold().getAsDouble() * stats.numValues();
    } else {
      long bound = Math.min(packed < 0 ? Long.MAX_VALUE : packed, fw.usedBytes());
      tryRle = RleCodec.estimate(stats.runCount(), stats.numValues(), bits) < bound;
    }
    if (tryRle) {
      rle = rle != null ? rle : rleCompressor.compress(fw);
      long size = MiniBlocks.storedBytes(rle, version);
      if (rleAsked || best == null || size <= best.estimatedBytes()) {
        // An asked-for RLE still competes with the other plugins' offers in the runtime; among
        // ours it wins, as the threshold rule says it applies.
        best = Proposal.measured("rle", size, rleCompressor, rle);
      }
    }
    return Optional.ofNullable(best);
  }

  @Override
  public Optional<Proposal<Encoded<byte[]>>> proposeBlock(DataBlock block, ProposalContext context) {
    FileVersion version = context.version();
    if (version == FileVersion.V2_3) {
      return block instanceof DataBlock.FixedWidth fw && (fw.bitsPerValue() == 8 || fw.bitsPerValue() == 16)
          ? Narrow23.proposeBlock(fw, context)
          : Bitpack23.proposeBlock(block, context);
    }
    if (!packable(block)) {
      return Optional.empty();
    }
    Stats.FixedWidth stats = (Stats.FixedWidth) context.stats();
    DataBlock.FixedWidth fw = (DataBlock.FixedWidth) block;
    int bits = fw.bitsPerValue();
    int width = stats.maxBitWidth();
    Proposal<Encoded<byte[]>> best = null;
    if (width < bits && fw.numValues() <= InlineBitpackingCodec.CHUNK) {
      long size = bits / 8 + 128L * width;
      best = Proposal.estimated("bitpack", size, new InlineBitpackingCodec.Block(), fw);
    } else if (width < bits) {
      long size = OutOfLineBitpackingCodec.size(bits, width, fw.numValues());
      best = Proposal.estimated("bitpack-ool", size, new OutOfLineBitpackingCodec.Compressor(width), fw);
    }
    // Block RLE is part of the 2.2 grammar only; 2.1 readers do not know it.
    if (version.atLeast(FileVersion.V2_2)) {
      long size = 8 + RleCodec.estimate(stats.runCount(), stats.numValues(), bits);
      if (best == null || size < best.estimatedBytes()) {
        best = Proposal.estimated("rle", size, new RleCodec.Block(), fw);
      }
    }
    return Optional.ofNullable(best);
  }

  private static int checkBits(long bits, String what) {
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
      throw LanceCodecException.corrupt(what + ": uncompressed width " + bits + " is not 8, 16, 32 or 64");
    }
    return (int) bits;
  }

  private static int flatBits(CompressiveEncoding e, String what) {
    if (!e.hasFlat()) {
      throw LanceCodecException.unsupported(what + ": only Flat children are supported, got " + e.getCompressionCase());
    }
    return (int) Math.min(Integer.MAX_VALUE, e.getFlat().getBitsPerValue());
  }

  @Override
  public MiniBlockDecompressor openMiniBlock(Message node, Decoders children) {
    if (Bitpack23.owns(node)) {
      return Bitpack23.openMiniBlock(node, children);
    }
    if (node instanceof InlineBitpacking ib) {
      if (ib.hasValues()) {
        throw LanceCodecException.unsupported("bitpack: buffer compression inside InlineBitpacking is not supported yet");
      }
      return new InlineBitpackingCodec.Decompressor(checkBits(ib.getUncompressedBitsPerValue(), "bitpack"));
    }
    if (node instanceof Rle rle) {
      int bits = checkBits(flatBits(rle.getValues(), "rle values"), "rle");
      int lengthBits = flatBits(rle.getRunLengths(), "rle run lengths");
      if (lengthBits != 8) {
        throw LanceCodecException.unsupported("rle: " + lengthBits + "-bit run lengths in a mini-block are not supported");
      }
      return new RleCodec.Decompressor(bits);
    }
    return CodecPlugin.super.openMiniBlock(node, children);
  }

  @Override
  public BlockDecompressor openBlock(Message node, Decoders children) {
    if (Bitpack23.owns(node)) {
      return Bitpack23.openBlock(node, children);
    }
    if (node instanceof InlineBitpacking ib) {
      return new InlineBitpackingCodec.Decompressor(checkBits(ib.getUncompressedBitsPerValue(), "bitpack"));
    }
    if (node instanceof Rle rle) {
      int bits = checkBits(flatBits(rle.getValues(), "rle values"), "rle");
      int lengthBits = flatBits(rle.getRunLengths(), "rle run lengths");
      if (lengthBits != 8 && lengthBits != 16 && lengthBits != 32) {
        throw LanceCodecException.corrupt("rle: run lengths of " + lengthBits + " bits (expected 8, 16 or 32)");
      }
      return new RleCodec.BlockDecompressor(bits, lengthBits);
    }
    if (node instanceof OutOfLineBitpacking ob) {
      int bits = checkBits(ob.getUncompressedBitsPerValue(), "bitpack-ool");
      int width = flatBits(ob.getValues(), "bitpack-ool");
      if (width < 0 || width > bits) {
        throw LanceCodecException.corrupt("bitpack-ool: width " + width + " exceeds " + bits);
      }
      return new OutOfLineBitpackingCodec.Decompressor(bits, width);
    }
    return CodecPlugin.super.openBlock(node, children);
  }

  @Override
  public Optional<EncodingSummary> describe(Message node, Decoders children) {
    if (Bitpack23.owns(node)) {
      return Bitpack23.describe(node, children);
    }
    if (node instanceof InlineBitpacking ib) {
      return Optional.of(EncodingSummary.of("bitpack", String.valueOf(ib.getUncompressedBitsPerValue())));
    }
    if (node instanceof OutOfLineBitpacking ob) {
      return Optional.of(EncodingSummary.of("bitpack-ool", String.valueOf(ob.getUncompressedBitsPerValue()),
          children.describe(ob.getValues())));
    }
    return Optional.empty();
  }
}
