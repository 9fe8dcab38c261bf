package io.lancecodec.spi;

/**
 * Output arrays that one reader hands to decompressor after decompressor, so that a codec which
 * builds new values (FSST, say) writes them into memory that is already allocated and still in
 * cache instead of a fresh, zeroed array per chunk. A block a decompressor returns may then
 * hold these arrays: it is valid only until the next call given the same {@code DecodeBuffers},
 * so a caller passes them only when it copies the values out first. Not thread-safe; one per
 * reading thread.
 *
 * <p>Arrays are never shrunk; a caller bounds what it keeps with {@link #trim}.
 */
public final class DecodeBuffers {
  private static final byte[] EMPTY = new byte[0];

  private byte[] data = EMPTY;
  private byte[] offsets = EMPTY;
  private DecodeBuffers inner;

  /**
   * Buffers for the decompressor one level down: a codec that wraps another (FSST around
   * Variable) decodes its child's output into these while it writes its own into this.
   */
  public DecodeBuffers inner() {
    if (inner == null) {
      inner = new DecodeBuffers();
    }
    return inner;
  }

  /** An array of at least {@code size} bytes for values; its contents are undefined. */
  public byte[] data(long size) {
    if (size > data.length) {
      data = new byte[capacity(data.length, size)];
    }
    return data;
  }

  /**
   * The data array grown to at least {@code size} bytes, its first {@code keep} bytes kept: for a
   * decompressor that finds mid-way that its output needs more room.
   */
  public byte[] growData(long size, int keep) {
    if (size > data.length) {
      byte[] grown = new byte[capacity(data.length, size)];
      System.arraycopy(data, 0, grown, 0, Math.min(keep, data.length));
      data = grown;
    }
    return data;
  }

  /** An array of at least {@code size} bytes for offsets; its contents are undefined. */
  public byte[] offsets(long size) {
    if (size > offsets.length) {
      offsets = new byte[capacity(offsets.length, size)];
    }
    return offsets;
  }

  /** Drops arrays over {@code maxBytes}, so that one large read does not pin its memory. */
  public void trim(long maxBytes) {
    if (data.length > maxBytes) {
      data = EMPTY;
    }
    if (offsets.length > maxBytes) {
      offsets = EMPTY;
    }
    if (inner != null) {
      inner.trim(maxBytes);
    }
  }

  /** Whether {@code array} is one of these buffers (a block built on it is borrowed). */
  public boolean holds(byte[] array) {
    return array != EMPTY && (array == data || array == offsets);
  }

  private static int capacity(int current, long size) {
    if (size > Integer.MAX_VALUE - 16) {
      throw LanceCodecException.unsupported("decoded chunk of " + size + " bytes exceeds 2 GiB");
    }
    // a little headroom: chunks of one page differ in size by a few percent
    return (int) Math.min(Integer.MAX_VALUE - 16, Math.max(size + (size >>> 4), current));
  }
}
