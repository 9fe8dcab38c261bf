package io.lancecodec.codec.pcodec;

/**
 * Writes a standalone pco file as pco 1.0's {@code simple_compress} does: header with the count
 * hint, format version 4.1, the numbers split into equal chunks of at most 2^18, terminator.
 */
final class PcoEncoder {
  private PcoEncoder() {}

  /** Fills {@code ordered[0, count)} with the ordered latents of numbers {@code [start, start + count)}. */
  interface Source {
    void fill(long[] ordered, int start, int count);
  }

  /** Compresses numbers given as raw bits (zero- or sign-extended, only the low bits count). */
  static byte[] compress(NumberType type, long[] raw, PcoConfig cfg) {
    return compress(type, raw.length, (ordered, start, count) -> {
      for (int i = 0; i < count; i++) {
        ordered[i] = type.toOrdered(raw[start + i]);
      }
    }, cfg);
  }

  /**
   * Compresses {@code n} numbers that {@code source} converts chunk by chunk, so the caller's
   * array is read once and no whole-input copy is made.
   */
  static byte[] compress(NumberType type, int n, Source source, PcoConfig cfg) {
    // pco never writes a chunk larger than plain bit packing plus its metadata, so this is
    // enough room almost always: the writer then never grows and copies.
    long bound = 64 + (long) n * type.bits / 8 + 1024L * (1 + n / Math.max(1, cfg.maxChunkN));
    BitWriter w = new BitWriter((int) Math.min(bound, Integer.MAX_VALUE - 64));
    w.writeAlignedBytes(PcoFormat.MAGIC);
    w.write(PcoFormat.STANDALONE_VERSION, 8);
    w.write(cfg.uniformType == null ? 0 : cfg.uniformType.code, 8);
    int power = n == 0 ? 1 : 64 - Long.numberOfLeadingZeros(n);
    w.write(power - 1, PcoFormat.N_HINT_POWER_BITS);
    w.write(n, power);
    w.finishByte();
    w.write(PcoFormat.FORMAT_MAJOR, 8);
    w.write(PcoFormat.FORMAT_MINOR, 8);
    if (n > 0) {
      int nChunks = (n + cfg.maxChunkN - 1) / cfg.maxChunkN;
      int low = n / nChunks;
      int withExtra = n % nChunks;
      int start = 0;
      for (int c = 0; c < nChunks; c++) {
        int chunkN = c < withExtra ? low + 1 : low;
        long[] nums = new long[chunkN];
        source.fill(nums, start, chunkN);
        ChunkEncoder.encode(w, type, nums, cfg);
        start += chunkN;
      }
    }
    w.write(PcoFormat.TERMINATOR, 8);
    return w.toByteArray();
  }
}
