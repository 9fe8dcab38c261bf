/** Bit-packing (FastLanes layout, inline and out-of-line) and run-length encoding. */
module io.lancecodec.codec.bitpack {
  requires io.lancecodec.spi;
  requires io.lancecodec.format;
  requires net.bytebuddy;

  provides io.lancecodec.spi.CodecPlugin with
      io.lancecodec.codec.bitpack.BitpackPlugin;
}
