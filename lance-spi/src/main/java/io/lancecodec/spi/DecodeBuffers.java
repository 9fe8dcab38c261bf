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
 *
 * <p>They also carry the most bytes one decoded block may take ({@link #maxBlockBytes}): a
 * decompressor whose output is not bounded by its input times a small factor (null rows expanded
 * to their full width, runs, general decompression) asks {@link #admit} before allocating it, so
 * that a few hostile bytes cannot demand gigabytes. Readers bound whole reads more tightly (the
 * runtime's {@code ReaderOptions.maxReadBytes}); this is the floor under codecs used directly.
 */
public final class DecodeBuffers {
  /** A quarter of the heap, at least 256 MiB (the largest mini-block chunk a reader accepts). */
  public static final long DEFAULT_MAX_BLOCK_BYTES = Math.max(256L << 20, Runtime.getRuntime().maxMemory() / 4);

  private static final byte[] EMPTY = new byte[0];

  private final long maxBlockBytes;

  private byte[] data = EMPTY;
  private byte[] offsets = EMPTY;
  private DecodeBuffers inner;

  public DecodeBuffers() {
    this(DEFAULT_MAX_BLOCK_BYTES);
  }

  public DecodeBuffers(long maxBlockBytes) {
    if (maxBlockBytes <= 0) {
      throw LanceCodecException.invalidArgument("maxBlockBytes must be positive, got " + maxBlockBytes);
    }
    this.maxBlockBytes = maxBlockBytes;
  }

  public long maxBlockBytes() {
    return maxBlockBytes;
  }

  /**
   * {@code count * bytesEach} as an array size, when one decoded block may take that many bytes;
   * otherwise one UNSUPPORTED error naming {@code what}. A decompressor calls it before allocating
   * an output its input does not bound; {@code reuse} is the buffers it was given, null for none
   * (then {@link #DEFAULT_MAX_BLOCK_BYTES} applies).
   */
  public static int admit(DecodeBuffers reuse, long count, long bytesEach, String what) {
    long max = reuse == null ? DEFAULT_MAX_BLOCK_BYTES : reuse.maxBlockBytes;
    if (count < 0 || bytesEach < 0 || bytesEach > 0 && count > max / bytesEach) {
      throw LanceCodecException.unsupported(what + ": " + count + " values of " + bytesEach + " bytes are over the "
          + max + " bytes one decoded block may take");
    }
    return LanceCodecException.checkedInt(count * bytesEach, what);
  }

  /**
   * Buffers for the decompressor one level down: a codec that wraps another (FSST around
   * Variable) decodes its child's output into these while it writes its own into this.
   */
  public DecodeBuffers inner() {
    if (inner == null) {
      inner = new DecodeBuffers(maxBlockBytes);
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

  private int capacity(int current, long size) {
    admit(this, size, 1, "decoded chunk");
    if (size > Integer.MAX_VALUE - 16) {
      throw LanceCodecException.unsupported("decoded chunk of " + size + " bytes exceeds 2 GiB");
    }
    // a little headroom: chunks of one page differ in size by a few percent
    return (int) Math.min(Integer.MAX_VALUE - 16, Math.max(size + (size >>> 4), current));
  }
}
