/**
 * Generated protobuf messages of the Lance v2 format, from our own wire-compatible .proto files:
 * the file container ({@code lance.file}, {@code lance.file.v2}) and the 2.1/2.2 encoding
 * grammar ({@code lance.encodings21}) and the unstable 2.3 grammar ({@code lance.encodings23}).
 */
module io.lancecodec.format {
  requires transitive com.google.protobuf;

  exports io.lancecodec.format;
  exports io.lancecodec.format.pb.file;
  exports io.lancecodec.format.pb.file2;
  exports io.lancecodec.format.pb.v20;
  exports io.lancecodec.format.pb.v21;
  exports io.lancecodec.format.pb.v23;
  exports io.lancecodec.format.pb.options;
}
