package com.example.gorilla;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Extension;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.Extensions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gorilla XOR compression for Lance 2.3 mini-blocks, asked for with
 * {@code lance-encoding:compression=gorilla} on a float32 or float64 field. Its pages carry the
 * extension node {@value #CODEC_ID} (version 1; parameters: one byte, the word width), one buffer per
 * chunk of at most 1024 values. Only 2.3 files have extension nodes, so only 2.3 is declared.
 */
public final class GorillaPlugin implements CodecPlugin {
  /** The codec id written into files; never change it once files exist. */
  public static final String CODEC_ID = "com.example.gorilla";
  static final int CODEC_VERSION = 1;
  /** Values per chunk: the worst case (every value in the long form) stays far below a chunk's byte budget. */
  static final int CHUNK_VALUES = 1024;

  @Override
  public String name() {
    return "gorilla";
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
    return Map.of(CODEC_ID, CODEC_VERSION);
  }

  @Override
  public Set<String> compressionSchemes() {
    return Set.of("gorilla");
  }

  /**
   * Gorilla compresses runs of similar values chunk by chunk: a field asking for it is stored in
   * dense mini-blocks of its own values, never dictionary encoded (the XOR stream of dictionary
   * indices would be pointless) and never zipped value by value.
   */
  @Override
  public Set<String> chunkedSchemes() {
    return Set.of("gorilla");
  }

  /** Compresses the page to know its size: the XOR stream has no cheap estimate. */
  @Override
  public boolean measuresOffers() {
    return true;
  }

  @Override
  public Optional<Proposal<MiniBlockCompressed>> proposeMiniBlock(DataBlock block, ProposalContext context) {
    if (!context.options().compression().filter("gorilla"::equals).isPresent()
        || !(block instanceof DataBlock.FixedWidth fw) || (fw.bitsPerValue() != 32 && fw.bitsPerValue() != 64)
        || fw.numValues() == 0 || context.oneChunk()) {
      return Optional.empty();
    }
    int chunkValues = Math.min(CHUNK_VALUES, MiniBlocks.fullChunkValues(context.options().miniBlockMaxValues()));
    MiniBlockCompressed page = compress(fw, chunkValues);
    return Optional.of(Proposal.measured("gorilla", MiniBlocks.storedBytes(page, context.version()),
        b -> compress((DataBlock.FixedWidth) b, chunkValues), page));
  }

  static CompressiveEncoding node(int width) {
    return Extensions.node(CODEC_ID, CODEC_VERSION, new byte[] {(byte) width});
  }

  static MiniBlockCompressed compress(DataBlock.FixedWidth fw, int chunkValues) {
    int n = Math.toIntExact(fw.numValues());
    int width = fw.bitsPerValue();
    int bytes = width / 8;
    long[] words = new long[Math.min(n, chunkValues)];
    byte[] out = new byte[GorillaChunk.maxBytes(chunkValues, width) * ((n + chunkValues - 1) / chunkValues)];
    List<MiniBlockChunk> chunks = new ArrayList<>();
    int at = 0;
    for (int start = 0; start < n; start += chunkValues) {
      int m = Math.min(chunkValues, n - start);
      for (int i = 0; i < m; i++) {
        words[i] = LittleEndian.getUnsigned(fw.data(), (start + i) * bytes, bytes);
      }
      int size = GorillaChunk.encode(words, m, width, out, at);
      at += size;
      chunks.add(new MiniBlockChunk(new int[] {size}, MiniBlocks.logNumValues(m, start + m == n)));
    }
    return new MiniBlockCompressed(List.of(java.util.Arrays.copyOf(out, at)), chunks, n, node(width));
  }

  @Override
  public MiniBlockDecompressor openMiniBlock(Message node, Decoders children) {
    if (!(node instanceof Extension ext) || !CODEC_ID.equals(ext.getCodecId())) {
      return CodecPlugin.super.openMiniBlock(node, children);
    }
    int width = width(ext);
    return (MiniBlockBuffers chunk, int n, DecodeBuffers reuse) -> {
      if (chunk.count() != 1) {
        throw LanceCodecException.corrupt("gorilla: " + chunk.count() + " buffers in a chunk, expected 1");
      }
      long[] words = new long[DecodeBuffers.admit(reuse, n, 8, "gorilla chunk values")];
      GorillaChunk.decode(chunk.bytes(), chunk.offset(0), chunk.size(0), n, width, words);
      int bytes = width / 8;
      byte[] out = new byte[n * bytes];
      for (int i = 0; i < n; i++) {
        LittleEndian.putUnsigned(out, i * bytes, bytes, words[i]);
      }
      return new DataBlock.FixedWidth(out, width, n);
    };
  }

  private static int width(Extension ext) {
    if (ext.getParameters().size() != 1 || (ext.getParameters().byteAt(0) != 32 && ext.getParameters().byteAt(0) != 64)
        || ext.getChildrenCount() != 0) {
      throw LanceCodecException.corrupt("gorilla: parameters must be one byte, the word width 32 or 64, and no children");
    }
    return ext.getParameters().byteAt(0);
  }

  @Override
  public Optional<EncodingSummary> describe(Message node, Decoders children) {
    if (node instanceof Extension ext && CODEC_ID.equals(ext.getCodecId())) {
      return Optional.of(EncodingSummary.of("gorilla", ext.getParameters().isEmpty() ? "?" : String.valueOf(ext.getParameters().byteAt(0))));
    }
    return Optional.empty();
  }
}
