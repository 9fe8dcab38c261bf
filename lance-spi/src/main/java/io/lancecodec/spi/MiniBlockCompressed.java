package io.lancecodec.spi;

import com.google.protobuf.Message;
import java.util.List;

/**
 * The output of a {@link MiniBlockCompressor}: {@code buffers.get(i)} holds buffer {@code i} of
 * every chunk, concatenated in chunk order; {@code chunks} says how to slice them.
 */
public record MiniBlockCompressed(
    List<byte[]> buffers, List<MiniBlockChunk> chunks, long numValues, Message encoding) {}
