package io.lancecodec.testkit;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Extension;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Extensions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A toy extension codec for the contract's own tests: 32-bit values XORed with their predecessor,
 * in chunks of 1024, under the extension node {@value #ID}. {@link Flaw} makes it break one rule
 * of the contract at a time, so each test of the contract is seen to fail.
 */
public class XorCodec implements CodecPlugin {
  static final String ID = "io.lancecodec.test.xor";

  enum Flaw {
    NONE,
    /** Offers half the bytes it stores. */
    LIES_ABOUT_SIZE,
    /** Decodes the last value of each chunk wrong. */
    WRONG_DECODE,
    /** Trusts the chunk's size: a short buffer escapes as ArrayIndexOutOfBoundsException. */
    UNCHECKED_INPUT,
    /** Pads each chunk with a byte that changes every call. */
    NONDETERMINISTIC,
    /** Compresses through one scratch array shared by every thread. */
    SHARED_SCRATCH,
    /** Never offers. */
    SILENT
  }

  private static int calls;
  private static final int[] SCRATCH = new int[1024];
  private final Flaw flaw;

  public XorCodec() {
    this(Flaw.NONE);
  }

  XorCodec(Flaw flaw) {
    this.flaw = flaw;
  }

  @Override
  public String name() {
    return "test-xor";
  }

  @Override
  public Set<FileVersion> fileVersions() {
    return Set.of(FileVersion.V2_3);
  }

  @Override
  public Set<Class<? extends Message>> decodes() {
    return Set.of();
  }

  @Override
  public Map<String, Integer> extensions() {
    return Map.of(ID, 1);
  }

  @Override
  public Optional<Proposal<MiniBlockCompressed>> proposeMiniBlock(DataBlock block, ProposalContext context) {
    if (flaw == Flaw.SILENT || !(block instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() != 32 || fw.numValues() == 0) {
      return Optional.empty();
    }
    MiniBlockCompressed out = compress(fw);
    long bytes = io.lancecodec.spi.MiniBlocks.storedBytes(out, context.version());
    return Optional.of(Proposal.measured("test-xor", flaw == Flaw.LIES_ABOUT_SIZE ? bytes / 2 : bytes, b -> compress((DataBlock.FixedWidth) b), out));
  }

  private MiniBlockCompressed compress(DataBlock.FixedWidth fw) {
    int n = (int) fw.numValues();
    int pad = flaw == Flaw.NONDETERMINISTIC ? 1 : 0;
    List<MiniBlockChunk> chunks = new ArrayList<>();
    byte[] out = new byte[4 * n + pad * (n / 1024 + 1)];
    int at = 0;
    for (int start = 0; start < n; start += 1024) {
      int m = Math.min(1024, n - start);
      int[] xored = flaw == Flaw.SHARED_SCRATCH ? SCRATCH : new int[m];
      int prev = 0;
      for (int i = 0; i < m; i++) {
        int v = LittleEndian.getInt(fw.data(), 4 * (start + i));
        xored[i] = v ^ prev;
        prev = v;
        if (flaw == Flaw.SHARED_SCRATCH && i % 64 == 0) {
          Thread.yield();
        }
      }
      for (int i = 0; i < m; i++) {
        LittleEndian.putInt(out, at + 4 * i, xored[i]);
      }
      at += 4 * m;
      if (pad > 0) {
        out[at++] = (byte) calls++;
      }
      chunks.add(new MiniBlockChunk(new int[] {4 * m + pad}, start + m == n ? 0 : 10));
    }
    return new MiniBlockCompressed(List.of(out), chunks, n, node());
  }

  static CompressiveEncoding node() {
    return Extensions.node(ID, 1, new byte[0]);
  }

  @Override
  public MiniBlockDecompressor openMiniBlock(Message node, Decoders children) {
    if (!(node instanceof Extension ext) || !ext.getCodecId().equals(ID)) {
      return CodecPlugin.super.openMiniBlock(node, children);
    }
    int pad = flaw == Flaw.NONDETERMINISTIC ? 1 : 0;
    return (MiniBlockBuffers chunk, int n, DecodeBuffers reuse) -> {
      if (flaw != Flaw.UNCHECKED_INPUT && chunk.size(0) != 4L * n + pad) {
        throw LanceCodecException.corrupt(ID + ": " + chunk.size(0) + " bytes for " + n + " values");
      }
      byte[] out = new byte[4 * n];
      int prev = 0;
      for (int i = 0; i < n; i++) {
        int v = LittleEndian.getInt(chunk.bytes(), chunk.offset(0) + 4 * i) ^ prev;
        if (flaw == Flaw.UNCHECKED_INPUT && 4 * i >= chunk.size(0)) {
          throw new ArrayIndexOutOfBoundsException(i);
        }
        LittleEndian.putInt(out, 4 * i, flaw == Flaw.WRONG_DECODE && i == n - 1 ? v + 1 : v);
        prev = v;
      }
      return new DataBlock.FixedWidth(out, 32, n);
    };
  }
}
