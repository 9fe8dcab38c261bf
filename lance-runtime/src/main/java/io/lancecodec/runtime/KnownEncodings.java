package io.lancecodec.runtime;

import java.util.Map;

/**
 * Which artifact provides each encoding of the Lance grammars, so a reader missing a plugin can
 * tell the user which jar to add. Only names, no classes: the runtime must not depend on codecs.
 */
final class KnownEncodings {
  private static final Map<String, String> ARTIFACT =
      Map.ofEntries(
          Map.entry("Flat", "lance-runtime"),
          Map.entry("Variable", "lance-runtime"),
          Map.entry("Constant", "lance-runtime"),
          Map.entry("FixedSizeList", "lance-runtime"),
          Map.entry("PackedStruct", "lance-runtime"),
          Map.entry("VariablePackedStruct", "lance-runtime"),
          Map.entry("InlineBitpacking", "io.lancecodec:codec-bitpack"),
          Map.entry("OutOfLineBitpacking", "io.lancecodec:codec-bitpack"),
          Map.entry("Rle", "io.lancecodec:codec-bitpack"),
          Map.entry("Dictionary", "io.lancecodec:codec-bitpack"),
          Map.entry("Fsst", "io.lancecodec:codec-fsst"),
          Map.entry("General", "io.lancecodec:codec-general"),
          Map.entry("ByteStreamSplit", "io.lancecodec:codec-general"),
          Map.entry("Alp", "io.lancecodec:codec-alp"),
          Map.entry("Pcodec", "io.lancecodec:codec-pcodec"),
          Map.entry("MiniBlockLayout", "io.lancecodec:layout-legacy"),
          Map.entry("FullZipLayout", "io.lancecodec:layout-legacy"),
          Map.entry("ConstantLayout", "io.lancecodec:layout-legacy"),
          Map.entry("BlobLayout", "io.lancecodec:layout-legacy"),
          Map.entry("PlanarLayout", "io.lancecodec:layout-planar"));

  private KnownEncodings() {}

  static String artifactOf(String encoding) {
    return ARTIFACT.getOrDefault(encoding, "an unknown plugin");
  }
}
