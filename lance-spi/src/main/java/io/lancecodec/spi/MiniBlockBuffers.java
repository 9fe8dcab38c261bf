package io.lancecodec.spi;

/**
 * The value buffers of one mini-block chunk as slices of one array, buffer {@code i} being
 * {@code bytes[offsets[i], offsets[i] + sizes[i])}: a layout hands a chunk to its decompressor
 * where the chunk was read, without copying each buffer out. The runtime and layouts check the
 * slices against the array before they construct this; a decompressor checks sizes against what
 * it needs.
 */
public record MiniBlockBuffers(byte[] bytes, int[] offsets, int[] sizes) {
  public MiniBlockBuffers {
    if (offsets.length != sizes.length) {
      throw LanceCodecException.internal(offsets.length + " buffer offsets but " + sizes.length + " sizes");
    }
    for (int i = 0; i < offsets.length; i++) {
      if (offsets[i] < 0 || sizes[i] < 0 || sizes[i] > bytes.length - offsets[i]) {
        throw LanceCodecException.corrupt("chunk buffer " + i + " [" + offsets[i] + ", +" + sizes[i]
            + ") lies outside its " + bytes.length + " bytes");
      }
    }
  }

  /** One buffer that is the whole array. */
  public static MiniBlockBuffers of(byte[] buffer) {
    return new MiniBlockBuffers(buffer, new int[] {0}, new int[] {buffer.length});
  }

  /** Buffers given as separate arrays, copied into one (tests, and codecs that rebuild a chunk). */
  public static MiniBlockBuffers of(byte[]... buffers) {
    int total = 0;
    for (byte[] b : buffers) {
      total += b.length;
    }
    byte[] all = new byte[total];
    int[] offsets = new int[buffers.length];
    int[] sizes = new int[buffers.length];
    int pos = 0;
    for (int i = 0; i < buffers.length; i++) {
      System.arraycopy(buffers[i], 0, all, pos, buffers[i].length);
      offsets[i] = pos;
      sizes[i] = buffers[i].length;
      pos += buffers[i].length;
    }
    return new MiniBlockBuffers(all, offsets, sizes);
  }

  public int count() {
    return offsets.length;
  }

  public int offset(int buffer) {
    return offsets[buffer];
  }

  public int size(int buffer) {
    return sizes[buffer];
  }

  /** A copy of one buffer, for codecs whose kernels want an array of their own. */
  public byte[] copy(int buffer) {
    return java.util.Arrays.copyOfRange(bytes, offsets[buffer], offsets[buffer] + sizes[buffer]);
  }

  /** The same chunk with buffer {@code i} replaced by {@code data} (a wrapping codec's decoded inner buffer). */
  public MiniBlockBuffers with(int buffer, byte[] data) {
    byte[][] parts = new byte[count()][];
    for (int i = 0; i < parts.length; i++) {
      parts[i] = i == buffer ? data : copy(i);
    }
    return of(parts);
  }

  /** Throws CORRUPT naming {@code codec} unless the chunk has exactly {@code n} buffers. */
  public MiniBlockBuffers expect(int n, String codec) {
    if (count() != n) {
      throw LanceCodecException.corrupt(codec + ": chunk has " + count() + " buffers, expected " + n);
    }
    return this;
  }
}
