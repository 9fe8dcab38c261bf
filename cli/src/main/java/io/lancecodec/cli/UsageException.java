package io.lancecodec.cli;

/** Malformed command line (unknown command or option, missing or bad argument): exit status 2. */
public final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
