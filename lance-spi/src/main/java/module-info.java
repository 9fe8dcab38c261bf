/**
 * The plugin API of lance-codec: compressor traits for the three compression contexts (block,
 * mini-block, per-value), the structural layout trait, the data-block model and the single
 * exception type. It deliberately knows nothing about Arrow so codec jars stay small.
 */
module io.lancecodec.spi {
  requires transitive io.lancecodec.format;

  exports io.lancecodec.spi;
}
