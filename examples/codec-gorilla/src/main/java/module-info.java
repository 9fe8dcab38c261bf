/** Gorilla XOR compression of 32- and 64-bit floats: an example of a codec built outside lance-codec. */
module com.example.gorilla {
  requires io.lancecodec.spi;

  provides io.lancecodec.spi.CodecPlugin with com.example.gorilla.GorillaPlugin;
}
