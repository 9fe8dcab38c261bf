/**
 * ALP and ALP-RD (Afroozeh, Kuffó, Boncz, "ALP: Adaptive Lossless floating-Point Compression",
 * SIGMOD 2024) for float32/float64 mini-block chunks of the unstable Lance 2.3 format. The
 * algorithm core only: no plugin is provided yet.
 */
module io.lancecodec.codec.alp {
  requires io.lancecodec.spi;
}
