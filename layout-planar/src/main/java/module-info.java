/** The 2.3 planar page layout (lance.encodings23.PlanarLayout). */
module io.lancecodec.layout.planar {
  requires io.lancecodec.spi;
  requires io.lancecodec.format;
  requires io.lancecodec.layout.physical;

  provides io.lancecodec.spi.layout.LayoutPlugin with
      io.lancecodec.layout.planar.PlanarLayoutPlugin;
}
