package io.lancecodec.layout.physical;

import java.util.Arrays;

/** Repetition and definition levels gathered from several chunks or pieces, grown as needed. */
public final class LevelSink {
  private short[] rep;
  private short[] def;
  private int count;

  public LevelSink(boolean hasRep, boolean hasDef) {
    this(hasRep, hasDef, 64);
  }

  /** With room for {@code expected} levels up front (capped), so a scan does not grow by doubling. */
  public LevelSink(boolean hasRep, boolean hasDef, long expected) {
    int cap = (int) Math.max(64, Math.min(expected, 1 << 24));
    rep = hasRep ? new short[cap] : null;
    def = hasDef ? new short[cap] : null;
  }

  /** Appends levels {@code [from, to)} of the given arrays (either may be null when absent). */
  public void append(short[] r, short[] d, int from, int to) {
    int n = to - from;
    if (n <= 0) {
      return;
    }
    ensure(count + n);
    if (rep != null) {
      System.arraycopy(r, from, rep, count, n);
    }
    if (def != null) {
      System.arraycopy(d, from, def, count, n);
    }
    count += n;
  }

  public void add(int r, int d) {
    ensure(count + 1);
    if (rep != null) {
      rep[count] = (short) r;
    }
    if (def != null) {
      def[count] = (short) d;
    }
    count++;
  }

  private void ensure(long size) {
    if (size > Integer.MAX_VALUE - 16) {
      throw io.lancecodec.spi.LanceCodecException.unsupported("more than 2^31 levels in one read; use a smaller batch size");
    }
    int cap = rep != null ? rep.length : def != null ? def.length : Integer.MAX_VALUE;
    if (size > cap) {
      int n = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(size, cap * 2L));
      rep = rep == null ? null : Arrays.copyOf(rep, n);
      def = def == null ? null : Arrays.copyOf(def, n);
    }
  }

  public int count() {
    return count;
  }

  /**
   * Makes room for {@code n} levels past the end, for a decoder to write in place (at
   * {@link #count()} of {@link #repArray()} and {@link #defArray()}) before {@link #keep}.
   */
  public void reserve(int n) {
    ensure((long) count + n);
  }

  /** Levels that fit past the end without growing the arrays. */
  public int room() {
    int cap = rep != null ? rep.length : def != null ? def.length : Integer.MAX_VALUE;
    return cap - count;
  }

  /** The backing arrays, valid until the next append or reserve. */
  public short[] repArray() {
    return rep;
  }

  public short[] defArray() {
    return def;
  }

  /** Of the levels written in place past the end, keeps {@code [from, to)}. */
  public void keep(int from, int to) {
    int n = to - from;
    if (n <= 0) {
      return;
    }
    if (from > 0) {
      if (rep != null) {
        System.arraycopy(rep, count + from, rep, count, n);
      }
      if (def != null) {
        System.arraycopy(def, count + from, def, count, n);
      }
    }
    count += n;
  }

  public short[] rep() {
    return rep == null ? null : rep.length == count ? rep : Arrays.copyOf(rep, count);
  }

  public short[] def() {
    return def == null ? null : def.length == count ? def : Arrays.copyOf(def, count);
  }
}
