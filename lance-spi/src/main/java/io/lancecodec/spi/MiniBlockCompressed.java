package io.lancecodec.spi;

import com.google.protobuf.Message;
import java.util.List;

/**
 * The output of a {@link MiniBlockCompressor}: {@code buffers.get(i)} holds buffer {@code i} of
 * every chunk, concatenated in chunk order; {@code chunks} says how to slice them.
 * {@code frameHeaderBytes} is -1, except for chunks {@link MiniBlockCompressor#compressFramed
 * framed} in place: then the one buffer holds each chunk after that many bytes left for its
 * header and up to the next multiple of 8.
 */
public record MiniBlockCompressed(
    List<byte[]> buffers, List<MiniBlockChunk> chunks, long numValues, Message encoding, int frameHeaderBytes) {
  /** Chunks concatenated, not framed. */
  public MiniBlockCompressed(List<byte[]> buffers, List<MiniBlockChunk> chunks, long numValues, Message encoding) {
    this(buffers, chunks, numValues, encoding, -1);
  }

  /** Whether the chunks are framed, each in its place in a mini-block page. */
  public boolean framed() {
    return frameHeaderBytes >= 0;
  }
}
