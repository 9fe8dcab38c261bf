package io.lancecodec.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A one-line progress display on stderr for long writes, redrawn in place with a carriage
 * return. Off unless stderr is a terminal, so scripts and logs never see it; redrawn at most
 * {@link #REDRAW_NANOS} apart, so it costs nothing measurable per batch.
 */
final class Progress {
  /** Four redraws a second: smooth enough to read, rare enough not to flicker. */
  static final long REDRAW_NANOS = 250_000_000L;
  /** Short writes finish before a display would help; nothing is drawn in the first second. */
  static final long FIRST_DRAW_NANOS = 1_000_000_000L;

  private final PrintStream err;
  private final boolean enabled;
  private final LongSupplier clock;
  private final long started;
  private long lastDraw;
  private int drawnWidth;

  Progress(PrintStream err, boolean enabled, LongSupplier clock) {
    this.err = err;
    this.enabled = enabled;
    this.clock = clock;
    this.started = clock.getAsLong();
    this.lastDraw = started - REDRAW_NANOS;
  }

  /** {@code fraction} of the input read, 0 to 1, or NaN when the input's size is unknown. */
  void update(long rows, double fraction) {
    if (!enabled) {
      return;
    }
    long now = clock.getAsLong();
    if (now - started < FIRST_DRAW_NANOS || now - lastDraw < REDRAW_NANOS) {
      return;
    }
    lastDraw = now;
    String line = line(rows, fraction, (now - started) / 1e9);
    StringBuilder sb = new StringBuilder("\r").append(line);
    for (int i = line.length(); i < drawnWidth; i++) {
      sb.append(' ');
    }
    drawnWidth = line.length();
    err.print(sb);
    err.flush();
  }

  /** Clears the line, so the summary that follows starts on a clean one. */
  void finish() {
    if (enabled && drawnWidth > 0) {
      err.print("\r" + " ".repeat(drawnWidth) + "\r");
      err.flush();
      drawnWidth = 0;
    }
  }

  static String line(long rows, double fraction, double seconds) {
    StringBuilder sb = new StringBuilder("writing: ");
    if (!Double.isNaN(fraction)) {
      int width = 30;
      int done = (int) Math.round(Math.max(0, Math.min(1, fraction)) * width);
      sb.append('[').append("#".repeat(done)).append(" ".repeat(width - done)).append("] ")
          .append(String.format(Locale.ROOT, "%3d%% ", Math.round(fraction * 100)));
    }
    sb.append(String.format(Locale.ROOT, "%,d rows, %.1f s", rows, seconds));
    return sb.toString();
  }
}
