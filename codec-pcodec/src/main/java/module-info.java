/** Pcodec (pco 1.0) standalone numeric compression; the Lance plugin that uses it comes later. */
module io.lancecodec.codec.pcodec {
  requires io.lancecodec.spi;
}
