/** General-purpose compression (zstd, lz4, snappy) and byte-stream-split for Lance 2.1/2.2. */
module io.lancecodec.codec.general {
  requires io.lancecodec.spi;
  requires io.lancecodec.format;
  requires com.github.luben.zstd_jni;
  requires org.lz4.java;
  requires snappy.java;

  provides io.lancecodec.spi.CodecPlugin with
      io.lancecodec.codec.general.GeneralPlugin;
}
