/**
 * The lance-codec runtime: the plugin registry, the Lance v2 file container, and the Arrow
 * reader and writer API. Codec and layout plugins are found through the {@code uses} services.
 */
module io.lancecodec.runtime {
  requires transitive io.lancecodec.spi;
  requires io.lancecodec.format;
  requires transitive org.apache.arrow.vector;
  requires transitive org.apache.arrow.memory.core;

  exports io.lancecodec.runtime;

  uses io.lancecodec.spi.CodecPlugin;
  uses io.lancecodec.spi.layout.LayoutPlugin;
}
