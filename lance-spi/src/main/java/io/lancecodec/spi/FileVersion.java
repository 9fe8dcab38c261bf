package io.lancecodec.spi;

/**
 * A Lance file format version a plugin can read or write. 2.1 and 2.2 share the stable
 * {@code lance.encodings21} grammar; 2.3 is the unstable planar grammar.
 */
public enum FileVersion {
  V2_1(2, 1),
  V2_2(2, 2),
  V2_3(2, 3);

  private final int major;
  private final int minor;

  FileVersion(int major, int minor) {
    this.major = major;
    this.minor = minor;
  }

  public int major() {
    return major;
  }

  public int minor() {
    return minor;
  }

  /** True for versions at least as new as {@code other}. */
  public boolean atLeast(FileVersion other) {
    return compareTo(other) >= 0;
  }

  @Override
  public String toString() {
    return major + "." + minor;
  }

  /** Parses "2.1", "2.2" or "2.3"; anything else is an INVALID_ARGUMENT naming the choices. */
  public static FileVersion parse(String text) {
    for (FileVersion v : values()) {
      if (v.toString().equals(text)) {
        return v;
      }
    }
    throw LanceCodecException.invalidArgument(
        "unknown file version '" + text + "' (expected 2.1, 2.2 or 2.3)");
  }

  /** The version stored in a footer, or CORRUPT/UNSUPPORTED naming it. */
  public static FileVersion of(int major, int minor) {
    for (FileVersion v : values()) {
      if (v.major == major && v.minor == minor) {
        return v;
      }
    }
    throw LanceCodecException.unsupported(
        "file format version " + major + "." + minor + " is not supported (2.1, 2.2, 2.3 are)");
  }
}
