package io.lancecodec.spi;

import java.util.List;

/**
 * Decodes one mini-block chunk from its value buffers. Stateless and thread-safe; a chunk is
 * always decoded whole, so random access reads at most one chunk per value.
 */
public interface MiniBlockDecompressor {
  DataBlock decompress(List<byte[]> buffers, long numValues);
}
