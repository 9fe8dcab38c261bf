/**
 * ALP and ALP-RD (Afroozeh, Kuffó, Boncz, "ALP: Adaptive Lossless floating-Point Compression",
 * SIGMOD 2024) for float32/float64 mini-block chunks of the unstable Lance 2.3 format: the 2.3
 * {@code Alp} message's plugin, which the writer weighs against the other codecs' offers.
 */
module io.lancecodec.codec.alp {
  requires io.lancecodec.spi;
  requires io.lancecodec.format;
  requires net.bytebuddy;
  // optional: whole FOR chunks decode with the Vector API when the JVM resolves it (VectorFor)
  requires static jdk.incubator.vector;

  provides io.lancecodec.spi.CodecPlugin with
      io.lancecodec.codec.alp.AlpPlugin;
}
