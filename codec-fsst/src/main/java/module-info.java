/** FSST string compression (Boncz, Neumann, Leis, VLDB 2020) for 2.1/2.2 string pages. */
module io.lancecodec.codec.fsst {
  requires io.lancecodec.spi;
  requires io.lancecodec.format;

  provides io.lancecodec.spi.CodecPlugin with
      io.lancecodec.codec.fsst.FsstPlugin;
}
