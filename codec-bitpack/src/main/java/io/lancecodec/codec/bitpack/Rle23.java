package io.lancecodec.codec.bitpack;

import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Rle;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.ArrayList;
import java.util.List;

/**
 * 2.3 run-length encoding as a generic unsigned block: run values (a leaf of the sequence's
 * width) and positive run lengths (a u32 leaf), framed in one payload as
 *
 * <pre>
 * u64 values_payload_bytes   (as the 2.2 block RLE's first word)
 * u64 num_runs               (the run cardinality, which neither child's descriptor holds)
 * values payload             (values_payload_bytes bytes; 0 when the values leaf is metadata-only)
 * run-lengths payload        (the rest; empty when the lengths leaf is metadata-only)
 * </pre>
 *
 * An RLE block always has this payload: its run count lives there. The runs' lengths must sum to
 * exactly the container's cardinality, checked as they are read.
 */
final class Rle23 implements BlockDecompressor {
  static final int HEADER = 16;

  private final BlockDecompressor values;
  private final BlockDecompressor lengths;
  private final int bits;

  Rle23(Rle r, Decoders children) {
    this.values = Seq.child(children, r.hasValues(), r.getValues(), 0, "rle: values");
    this.lengths = Seq.child(children, r.hasRunLengths(), r.getRunLengths(), 32, "rle: run_lengths");
    this.bits = values.bitsPerValue();
  }

  @Override
  public int bitsPerValue() {
    return bits;
  }

  @Override
  public DataBlock decompress(byte[] data, long numValues) {
    if (data.length < HEADER) {
      throw LanceCodecException.corrupt("rle: payload of " + data.length + " bytes has no 16-byte header");
    }
    if (numValues < 0) {
      throw LanceCodecException.corrupt("rle: " + numValues + " values");
    }
    long valueBytes = LittleEndian.getLong(data, 0);
    long runs = LittleEndian.getLong(data, 8);
    long rest = data.length - HEADER;
    if (Long.compareUnsigned(runs, numValues) > 0 || (runs == 0) != (numValues == 0)) {
      throw LanceCodecException.corrupt("rle: " + Long.toUnsignedString(runs) + " runs of positive length cannot make " + numValues + " values");
    }
    if (Long.compareUnsigned(valueBytes, rest) > 0) {
      throw LanceCodecException.corrupt("rle: values payload of " + Long.toUnsignedString(valueBytes) + " bytes, " + rest + " follow the header");
    }
    long lengthBytes = rest - valueBytes;
    if (!values.consumesPayload() && valueBytes != 0 || !lengths.consumesPayload() && lengthBytes != 0) {
      throw LanceCodecException.corrupt("rle: a metadata-only child has a framed payload (" + valueBytes + " value bytes, "
          + lengthBytes + " run-length bytes)");
    }
    int w = bits == 0 ? 64 : bits;
    byte[] v = Seq.decodeChild(values, data, HEADER, (int) valueBytes, runs, w, "rle: values").data();
    byte[] l = Seq.decodeChild(lengths, data, HEADER + (int) valueBytes, (int) lengthBytes, runs, 32, "rle: run_lengths").data();
    int n = LanceCodecException.checkedInt(numValues, "rle value count");
    byte[] out = new byte[LanceCodecException.checkedInt((long) n * (w / 8), "rle output size")];
    long pos = 0;
    for (int r = 0; r < runs; r++) {
      long len = LittleEndian.getInt(l, 4 * r) & 0xFFFFFFFFL;
      if (len == 0) {
        throw LanceCodecException.corrupt("rle: run " + r + " has length 0");
      }
      // lengths are below 2^32 and runs at most n, so the sum cannot overflow; it must not pass n
      if (len > n - pos) {
        throw LanceCodecException.corrupt("rle: the run lengths sum past " + n + " values at run " + r);
      }
      fill(v, r, w, out, (int) pos, (int) len);
      pos += len;
    }
    if (pos != n) {
      throw LanceCodecException.corrupt("rle: the runs cover " + pos + " values, the block has " + n);
    }
    return new DataBlock.FixedWidth(out, w, numValues);
  }

  private static void fill(byte[] v, int r, int bits, byte[] out, int pos, int len) {
    if (bits == 32) {
      int x = LittleEndian.getInt(v, 4 * r);
      for (int i = pos, end = pos + len; i < end; i++) {
        LittleEndian.putInt(out, 4 * i, x);
      }
    } else {
      long x = LittleEndian.getLong(v, 8 * r);
      for (int i = pos, end = pos + len; i < end; i++) {
        LittleEndian.putLong(out, 8 * i, x);
      }
    }
  }

  /** RLE over the best value and length leaves for a family of non-empty sequences; null if a member is empty. */
  static Plan23 plan(List<long[]> family, int[] counts, int bits) {
    List<long[]> runValues = new ArrayList<>(family.size());
    List<long[]> runLengths = new ArrayList<>(family.size());
    int[] runCounts = new int[family.size()];
    for (int m = 0; m < family.size(); m++) {
      if (counts[m] == 0) {
        return null;
      }
      long[][] runs = runs(family.get(m), counts[m]);
      runValues.add(runs[0]);
      runLengths.add(runs[1]);
      runCounts[m] = runs[0].length;
    }
    Leaf23.Plan valuePlan = Leaf23.best(runValues, runCounts, bits, Leaf23.ALL);
    Leaf23.Plan lengthPlan = Leaf23.best(runLengths, runCounts, 32, Leaf23.ALL);
    long bytes = (long) HEADER * family.size() + valuePlan.bytes() + lengthPlan.bytes();
    CompressiveEncoding encoding = CompressiveEncoding.newBuilder()
        .setRle(Rle.newBuilder().setValues(valuePlan.encoding()).setRunLengths(lengthPlan.encoding()))
        .build();
    return new Plan23() {
      @Override
      public long bytes() {
        return bytes;
      }

      @Override
      public CompressiveEncoding encoding() {
        return encoding;
      }

      @Override
      public byte[] payload(long[] v, int n) {
        Leaf23.check(n > 0, "rle plan given an empty sequence");
        long[][] runs = runs(v, n);
        byte[] a = valuePlan.payload(runs[0], runs[0].length);
        byte[] b = lengthPlan.payload(runs[1], runs[1].length);
        byte[] out = new byte[HEADER + a.length + b.length];
        LittleEndian.putLong(out, 0, a.length);
        LittleEndian.putLong(out, 8, runs[0].length);
        System.arraycopy(a, 0, out, HEADER, a.length);
        System.arraycopy(b, 0, out, HEADER + a.length, b.length);
        return out;
      }
    };
  }

  /** Number of maximal runs of equal adjacent values among the first {@code n}. */
  static int runCount(long[] v, int n) {
    int runs = n == 0 ? 0 : 1;
    for (int i = 1; i < n; i++) {
      runs += v[i] != v[i - 1] ? 1 : 0;
    }
    return runs;
  }

  /** The run values and lengths of the first {@code n} values (n below 2^31, so lengths fit u32). */
  private static long[][] runs(long[] v, int n) {
    int count = runCount(v, n);
    long[] values = new long[count];
    long[] lengths = new long[count];
    int r = 0;
    for (int i = 0; i < n; ) {
      int j = i + 1;
      while (j < n && v[j] == v[i]) {
        j++;
      }
      values[r] = v[i];
      lengths[r++] = j - i;
      i = j;
    }
    return new long[][] {values, lengths};
  }
}
