package io.lancecodec.spi;

import com.google.protobuf.ByteString;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Extension;
import java.util.regex.Pattern;

/**
 * 2.3 {@code Extension} nodes, the place of codecs outside the Lance grammar in a file's
 * compression tree (see {@link CodecPlugin#extensions()}). Only 2.3 has them: 2.1/2.2 trees are
 * the reference's grammar, which has no such case.
 */
public final class Extensions {
  /** Reverse-DNS: at least two dot-separated labels of lower-case letters, digits and dashes. */
  private static final Pattern CODEC_ID = Pattern.compile("[a-z][a-z0-9-]*(\\.[a-z0-9][a-z0-9-]*)+");

  private Extensions() {}

  /** Whether {@code id} is a well-formed codec id ({@code com.example.gorilla}). */
  public static boolean validId(String id) {
    return id != null && id.length() <= 255 && CODEC_ID.matcher(id).matches();
  }

  /**
   * The node of codec {@code id}, version {@code version} of its bytes, with its opaque
   * {@code parameters} (may be empty) and the encodings of its {@code children} in order.
   */
  public static CompressiveEncoding node(String id, int version, byte[] parameters, CompressiveEncoding... children) {
    if (!validId(id)) {
      throw LanceCodecException.internal("'" + id + "' is not a reverse-DNS codec id");
    }
    Extension.Builder b = Extension.newBuilder().setCodecId(id).setCodecVersion(version)
        .setParameters(ByteString.copyFrom(parameters));
    for (CompressiveEncoding c : children) {
      b.addChildren(c);
    }
    return CompressiveEncoding.newBuilder().setExtension(b).build();
  }
}
