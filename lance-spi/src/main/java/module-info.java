/**
 * The plugin API of lance-codec. {@code io.lancecodec.spi} is what codec authors need: the
 * compressor and decompressor traits of the three compression contexts (block, mini-block,
 * per-value), proposals, typed field options, the data-block model and the single exception
 * type. {@code io.lancecodec.spi.layout} adds what layout authors need: pages, their sources,
 * levels and decoders; {@code io.lancecodec.spi.kernel} helps codecs that write kernels at run
 * time. It deliberately knows nothing about Arrow so codec jars stay small.
 */
module io.lancecodec.spi {
  // protobuf messages are the encoding nodes plugins exchange; the generated grammar comes with
  // the SPI since Extensions builds 2.3 nodes for codecs outside it
  requires transitive com.google.protobuf;
  requires transitive io.lancecodec.format;
  // only for io.lancecodec.spi.kernel, which codecs that generate kernels use; they require it
  requires static net.bytebuddy;

  exports io.lancecodec.spi;
  exports io.lancecodec.spi.layout;
  exports io.lancecodec.spi.kernel;
}
