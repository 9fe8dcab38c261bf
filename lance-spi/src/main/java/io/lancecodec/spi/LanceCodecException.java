package io.lancecodec.spi;

/**
 * The one exception type of lance-codec. Its message is a single self-contained line (the CLI
 * prints it as is): it names the value, the limit it broke and where, never data bytes. The
 * runtime prefixes the location path (column, page, encoding node) as the error travels up.
 */
public final class LanceCodecException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What went wrong, so callers can react without parsing messages. */
  public enum Kind {
    /** The file (or an encoded buffer) violates the format. */
    CORRUPT,
    /** Valid format, but a feature this build does not implement. */
    UNSUPPORTED,
    /** A caller passed a bad argument (row out of range, unknown column, bad option). */
    INVALID_ARGUMENT,
    /** The file needs an encoding whose plugin jar is not on the class path. */
    MISSING_PLUGIN,
    /** Two plugins claim the same encoding, or a plugin targets another SPI version. */
    PLUGIN_CONFLICT,
    /** An I/O failure while reading or writing. */
    IO,
    /** A bug in lance-codec itself. */
    INTERNAL
  }

  private final Kind kind;

  public LanceCodecException(Kind kind, String message) {
    super(oneLine(message));
    this.kind = kind;
  }

  public LanceCodecException(Kind kind, String message, Throwable cause) {
    super(oneLine(message), cause);
    this.kind = kind;
  }

  /** Longest message kept; a file's names can be megabytes long. */
  static final int MAX_MESSAGE_CHARS = 2000;

  /**
   * The message as one line: messages quote what a file says (field names, type names), so
   * control characters are escaped ({@code \n}, four-digit escapes for the others) and the text is cut to
   * {@link #MAX_MESSAGE_CHARS}.
   */
  static String oneLine(String message) {
    if (message == null) {
      return null;
    }
    int n = message.length();
    int i = 0;
    while (i < n && !needsEscape(message.charAt(i))) {
      i++;
    }
    if (i == n && n <= MAX_MESSAGE_CHARS) {
      return message;
    }
    i = Math.min(i, MAX_MESSAGE_CHARS);
    StringBuilder b = new StringBuilder(Math.min(n, MAX_MESSAGE_CHARS) + 32).append(message, 0, i);
    for (; i < n && b.length() < MAX_MESSAGE_CHARS; i++) {
      char c = message.charAt(i);
      if (!needsEscape(c)) {
        b.append(c);
      } else if (c == '\n') {
        b.append("\\n");
      } else if (c == '\r') {
        b.append("\\r");
      } else if (c == '\t') {
        b.append("\\t");
      } else {
        b.append(String.format("\\u%04x", (int) c));
      }
    }
    if (i < n) {
      b.setLength(Math.min(b.length(), MAX_MESSAGE_CHARS));
      b.append("... (").append(n).append(" characters)");
    }
    return b.toString();
  }

  private static boolean needsEscape(char c) {
    return c < 0x20 || c == 0x7F || c == '\u2028' || c == '\u2029';
  }

  public Kind kind() {
    return kind;
  }

  public static LanceCodecException corrupt(String message) {
    return new LanceCodecException(Kind.CORRUPT, message);
  }

  public static LanceCodecException unsupported(String message) {
    return new LanceCodecException(Kind.UNSUPPORTED, message);
  }

  public static LanceCodecException invalidArgument(String message) {
    return new LanceCodecException(Kind.INVALID_ARGUMENT, message);
  }

  /** A broken invariant of lance-codec itself: never caused by a file or an argument. */
  public static LanceCodecException internal(String message) {
    return new LanceCodecException(Kind.INTERNAL, message);
  }

  public static LanceCodecException missingPlugin(String message) {
    return new LanceCodecException(Kind.MISSING_PLUGIN, message);
  }

  public static LanceCodecException pluginConflict(String message) {
    return new LanceCodecException(Kind.PLUGIN_CONFLICT, message);
  }

  public static LanceCodecException io(String message, Throwable cause) {
    return new LanceCodecException(Kind.IO, message, cause);
  }

  /** A new exception whose message is {@code context + ": " + message}, same kind and cause. */
  public LanceCodecException within(String context) {
    LanceCodecException e = new LanceCodecException(kind, context + ": " + getMessage(), getCause());
    e.setStackTrace(getStackTrace());
    return e;
  }

  /** Throws CORRUPT unless {@code condition}; the check every length read from a file goes through. */
  public static void check(boolean condition, String what) {
    if (!condition) {
      throw corrupt(what);
    }
  }

  /** Narrows a length read from a file to an int, failing with CORRUPT instead of overflowing. */
  public static int checkedInt(long value, String what) {
    if (value < 0 || value > Integer.MAX_VALUE - 16) {
      throw corrupt(what + " " + value + " is out of range [0, " + (Integer.MAX_VALUE - 16) + "]");
    }
    return (int) value;
  }
}
