/** The 2.1/2.2 page layouts: mini-block, full-zip and constant (lance.encodings21.PageLayout). */
module io.lancecodec.layout.legacy {
  requires io.lancecodec.spi;
  requires io.lancecodec.format;
  requires io.lancecodec.layout.physical;

  provides io.lancecodec.spi.layout.LayoutPlugin with
      io.lancecodec.layout.legacy.LegacyLayoutPlugin;
}
