package io.lancecodec.codec.alp;

import io.lancecodec.spi.MiniBlockChunk;
import java.util.List;

/**
 * An encoded page: {@code buffer(i)} holds buffer {@code i} of every chunk, concatenated in chunk
 * order, and {@link #chunks} gives each chunk's four buffer sizes and log2 value count in the
 * shape the mini-block layout takes ({@code log = 10} for the full chunks, 0 for the last). The
 * arrays are the page's own, not copies.
 */
public final class AlpPage {
  private final byte[][] buffers;
  private final List<MiniBlockChunk> chunks;
  private final int[] chunkValues;
  private final long numValues;

  AlpPage(byte[][] buffers, List<MiniBlockChunk> chunks, int[] chunkValues, long numValues) {
    this.buffers = buffers;
    this.chunks = List.copyOf(chunks);
    this.chunkValues = chunkValues;
    this.numValues = numValues;
  }

  /** Buffer {@code i} (0 payload, 1 headers, 2 exception positions or dictionaries, 3 the rest). */
  public byte[] buffer(int i) {
    return buffers[i];
  }

  public List<MiniBlockChunk> chunks() {
    return chunks;
  }

  public int numChunks() {
    return chunkValues.length;
  }

  /** Values in chunk {@code c}: 1024 except perhaps in the last. */
  public int chunkValues(int c) {
    return chunkValues[c];
  }

  public long numValues() {
    return numValues;
  }

  /** Bytes of all four buffers together, the figure compared with the raw page. */
  public long encodedBytes() {
    long total = 0;
    for (byte[] b : buffers) {
      total += b.length;
    }
    return total;
  }
}
