package io.lancecodec.spi;

import com.google.protobuf.Message;

/**
 * Opens decompressors for {@code CompressiveEncoding} messages through the registry. Plugins
 * whose encodings nest another encoding (general compression around bitpacking, FSST around
 * Variable) use it to open their child without knowing who owns it.
 */
public interface Decoders {
  MiniBlockDecompressor miniBlock(Message compressiveEncoding);

  BlockDecompressor block(Message compressiveEncoding);

  PerValueDecompressor perValue(Message compressiveEncoding);
}
