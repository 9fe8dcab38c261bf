package io.lancecodec.codec.pcodec;

final class PcoEncoder {
  private PcoEncoder() {}

  static byte[] compress(NumberType type, long[] raw, PcoConfig config) {
    throw new UnsupportedOperationException();
  }
}
