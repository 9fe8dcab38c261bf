/** Pcodec (pco 1.0) standalone numeric compression and the Lance 2.3 plugin that stores float mini-blocks with it. */
module io.lancecodec.codec.pcodec {
  requires io.lancecodec.spi;
  requires io.lancecodec.format;

  provides io.lancecodec.spi.CodecPlugin with
      io.lancecodec.codec.pcodec.PcodecPlugin;
}
