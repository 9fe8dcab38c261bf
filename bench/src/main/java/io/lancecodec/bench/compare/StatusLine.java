package io.lancecodec.bench.compare;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The benchmark's progress on a terminal: one status line at the bottom of stderr, redrawn in
 * place, with the log lines written through {@link #stream()} scrolling above it. Off unless
 * stderr is a terminal ({@code -Dlance.codec.stderr.tty=true}, which {@code bin/lance-codec} and
 * {@code bench/compare.sh} set), so logs and scripts see the log lines only.
 */
final class StatusLine extends OutputStream {
  private static final byte[] CLEAR = "\r\033[K".getBytes(StandardCharsets.US_ASCII);

  private final PrintStream term;
  private final boolean enabled;
  private final PrintStream stream;
  private byte[] status = new byte[0];
  private boolean shown;
  private boolean atLineStart = true;

  StatusLine(PrintStream term, boolean enabled) {
    this.term = term;
    this.enabled = enabled;
    this.stream = enabled ? new PrintStream(this, true, StandardCharsets.UTF_8) : term;
  }

  /** Where log lines go: the terminal itself when the status line is off. */
  PrintStream stream() {
    return stream;
  }

  /** Shows {@code text} as the status (a data set, a system, a repetition). */
  synchronized void show(String text) {
    if (!enabled) {
      return;
    }
    status = text.getBytes(StandardCharsets.UTF_8);
    if (atLineStart) {
      term.write(CLEAR, 0, CLEAR.length);
      term.write(status, 0, status.length);
      shown = true;
      term.flush();
    }
  }

  /** Removes the status line, at the end of the run. */
  synchronized void done() {
    if (enabled && shown) {
      term.write(CLEAR, 0, CLEAR.length);
      term.flush();
      shown = false;
    }
    status = new byte[0];
  }

  @Override
  public synchronized void write(int b) {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) {
    if (len == 0) {
      return;
    }
    if (shown) {
      term.write(CLEAR, 0, CLEAR.length);
      shown = false;
    }
    term.write(b, off, len);
    atLineStart = b[off + len - 1] == '\n';
    if (atLineStart && status.length > 0) {
      term.write(status, 0, status.length);
      shown = true;
    }
    term.flush();
  }

  @Override
  public void flush() throws IOException {
    term.flush();
  }
}
