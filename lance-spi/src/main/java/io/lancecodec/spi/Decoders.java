package io.lancecodec.spi;

import com.google.protobuf.Message;

/**
 * The registry as a codec or layout sees it: opens decompressors for {@code CompressiveEncoding}
 * messages and summarizes them, whoever owns the case set in them. Plugins whose encodings nest
 * another encoding (general compression around bit-packing, FSST around Variable) use it for
 * their child without knowing who that is.
 */
public interface Decoders {
  MiniBlockDecompressor miniBlock(Message compressiveEncoding);

  BlockDecompressor block(Message compressiveEncoding);

  PerValueDecompressor perValue(Message compressiveEncoding);

  /** The tree under {@code compressiveEncoding}, for inspect; works without the owning plugin. */
  EncodingSummary describe(Message compressiveEncoding);
}
