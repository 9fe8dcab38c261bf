/**
 * The mini-block and full-zip physical grammars (chunks, control words, repetition indexes,
 * dictionaries) written once for every layout that stores pages in them. No plugin: the layouts
 * that use it describe the pages in their own grammar's messages.
 */
module io.lancecodec.layout.physical {
  requires transitive io.lancecodec.spi;

  exports io.lancecodec.layout.physical to
      io.lancecodec.layout.legacy,
      io.lancecodec.layout.planar;
}
