package io.lancecodec.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A parsed {@code --rows} value: comma-separated row indices and half-open ranges {@code a:b},
 * kept in the order given (take semantics; repeats allowed). Ranges stay unexpanded so a spec
 * like {@code 0:100000000} costs nothing until rows are read, chunk by chunk.
 */
public final class RowSpec {
  /** One item of the spec: rows {@code [start, end)}; a single index is {@code [i, i+1)}. */
  public record Segment(long start, long end) {
    long size() {
      return end - start;
    }
  }

  private final List<Segment> segments;

  private RowSpec(List<Segment> segments) {
    this.segments = Collections.unmodifiableList(segments);
  }

  public List<Segment> segments() {
    return segments;
  }

  /** Total rows the spec selects, counting repeats. */
  public long size() {
    long n = 0;
    for (Segment s : segments) {
      n += s.size();
    }
    return n;
  }

  /** The largest row index selected, or -1 if the spec selects no rows. */
  public long maxRow() {
    long max = -1;
    for (Segment s : segments) {
      if (s.size() > 0) {
        max = Math.max(max, s.end() - 1);
      }
    }
    return max;
  }

  /**
   * Parses a spec; throws {@link UsageException} naming the bad item. Whitespace around items
   * is allowed; empty items, negative numbers, {@code a:b} with {@code b < a} and anything
   * that is not a decimal integer are rejected.
   */
  public static RowSpec parse(String text) {
    if (text == null || text.isBlank()) {
      throw new UsageException("--rows needs a value such as 0:10,57,1000:1003");
    }
    List<Segment> out = new ArrayList<>();
    for (String raw : text.split(",", -1)) {
      String item = raw.strip();
      if (item.isEmpty()) {
        throw new UsageException("bad --rows '" + text + "': empty item (expected indices and ranges a:b separated by commas)");
      }
      int colon = item.indexOf(':');
      if (colon < 0) {
        long i = number(item, text);
        if (i == Long.MAX_VALUE) {
          throw new UsageException("bad --rows '" + text + "': row " + item + " is too large");
        }
        out.add(new Segment(i, i + 1));
      } else {
        if (item.indexOf(':', colon + 1) >= 0) {
          throw new UsageException("bad --rows '" + text + "': '" + item + "' has more than one ':'");
        }
        long a = number(item.substring(0, colon).strip(), text);
        long b = number(item.substring(colon + 1).strip(), text);
        if (b < a) {
          throw new UsageException("bad --rows '" + text + "': range " + item + " ends before it starts (ranges are half-open a:b with a <= b)");
        }
        out.add(new Segment(a, b));
      }
    }
    return new RowSpec(out);
  }

  private static long number(String s, String text) {
    if (s.isEmpty()) {
      throw new UsageException("bad --rows '" + text + "': a range needs both ends, as in 10:20");
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '-' && i == 0) {
        throw new UsageException("bad --rows '" + text + "': row " + s + " is negative");
      }
      if (c < '0' || c > '9') {
        throw new UsageException("bad --rows '" + text + "': '" + s + "' is not a row index");
      }
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw new UsageException("bad --rows '" + text + "': row " + s + " is too large");
    }
  }

  /**
   * The selected rows in order, in chunks of at most {@code chunk} indices, for reading with
   * take semantics without materialising the whole selection.
   */
  public java.util.Iterator<long[]> chunks(int chunk) {
    return new java.util.Iterator<>() {
      private int seg = 0;
      private long pos = segments.isEmpty() ? 0 : segments.get(0).start();

      private void skipEmpty() {
        while (seg < segments.size() && pos >= segments.get(seg).end()) {
          seg++;
          if (seg < segments.size()) {
            pos = segments.get(seg).start();
          }
        }
      }

      @Override
      public boolean hasNext() {
        skipEmpty();
        return seg < segments.size();
      }

      @Override
      public long[] next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        long[] buf = new long[chunk];
        int n = 0;
        while (n < chunk && hasNext()) {
          long take = Math.min(chunk - n, segments.get(seg).end() - pos);
          for (int k = 0; k < take; k++) {
            buf[n++] = pos++;
          }
        }
        return n == chunk ? buf : java.util.Arrays.copyOf(buf, n);
      }
    };
  }
}
