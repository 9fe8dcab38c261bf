package io.lancecodec.runtime.arrow;

import io.lancecodec.runtime.plugin.FslShape;
import io.lancecodec.runtime.plugin.FslValidity;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.DecodedPage;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;

/**
 * Fills fixed-size-list vectors (any depth, fixed-width leaf) from decoded pages: every level's
 * validity bitmap and the leaf values, with bulk copies where the bits line up.
 */
public final class FslFiller {
  private FslFiller() {}

  /**
   * A fixed-size list of any depth: its own validity from the levels; each inner level's
   * validity and the leaf values from the decoded rows, which are either plain (the leaf bytes,
   * everything valid) or {@link FslShape#rowBytes()} wide (every level's validity, then values).
   */
  public static void fill(org.apache.arrow.vector.complex.FixedSizeListVector vector, Physical physical,
      List<DecodedPage> pieces, int total) {
    fill(vector, physical, pieces, total, null, null);
  }

  /**
   * As above, where the plain rows of some pieces are already in {@code sink}, in order:
   * {@code sunkRows[k]} rows of piece k (then all of them, its values null). When every piece
   * sank its rows, the sink's buffer becomes the leaf values as it is.
   */
  public static void fill(org.apache.arrow.vector.complex.FixedSizeListVector vector, Physical physical,
      List<DecodedPage> pieces, int total, ArrowSink sink, long[] sunkRows) {
    List<FieldVector> chain = new ArrayList<>();
    List<Long> dims = new ArrayList<>();
    FieldVector v = vector;
    while (v instanceof org.apache.arrow.vector.complex.FixedSizeListVector l) {
      chain.add(l);
      dims.add((long) l.getListSize());
      v = l.getDataVector();
    }
    chain.add(v);
    long[] d = new long[dims.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = dims.get(i);
    }
    FslShape s = new FslShape(d, new boolean[d.length], physical.bits()).full();
    if (s.leafItems() != physical.dimension()) {
      throw LanceCodecException.internal("fixed-size list vector does not match its field");
    }
    int levels = d.length;
    long rowBytes = s.rowBytes();
    long vb = s.valueBytes();
    boolean bool = physical.kind() == Physical.Kind.BOOL;
    long numItems = (long) total * s.leafItems();
    byte[][] valid = new byte[levels][];
    for (int l = 0; l < levels; l++) {
      valid[l] = new byte[LanceCodecException.checkedInt(((long) total * s.items(l) + 7) / 8, "fixed-size list items")];
    }
    byte[] bits = bool ? new byte[LanceCodecException.checkedInt((numItems + 7) / 8, "fixed-size list items")] : null;
    VectorFiller.Owned owned = new VectorFiller.Owned(vector.getAllocator());
    try {
      byte[] validity = new byte[(total + 7) / 8];
      int nulls = fillListValidity(validity, pieces);
      boolean allSunk = sunkRows != null && !bool;
      for (int k = 0; allSunk && k < pieces.size(); k++) {
        allSunk = sunkRows[k] == pieces.get(k).numRows() && pieces.get(k).values() == null;
      }
      if (sunkRows != null && sink.size() != sum(sunkRows) * vb) {
        throw LanceCodecException.corrupt("pages wrote " + sink.size() + " bytes for " + sum(sunkRows) + " rows of " + vb + " bytes");
      }
      ArrowBuf data = bool ? null
          : allSunk ? sink.buffer().slice(0, Math.max(1, numItems * (physical.bits() / 8)))
          : owned.allocate(numItems * (physical.bits() / 8));
      long row = 0;
      long sunkAt = 0;
      for (int k = 0; k < pieces.size(); k++) {
        DecodedPage p = pieces.get(k);
        long n = p.numRows();
        if (sunkRows != null && sunkRows[k] > 0) {
          if (sunkRows[k] != n || p.values() != null) {
            throw LanceCodecException.corrupt("a page sank " + sunkRows[k] + " of its " + n + " rows");
          }
          if (!allSunk) {
            data.setBytes(row * vb, sink.buffer(), sunkAt, n * vb);
          }
          sunkAt += n * vb;
          for (int l = 0; l < levels; l++) {
            FslValidity.setBits(valid[l], row * s.items(l), n * s.items(l));
          }
        } else if (p.values() instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() == rowBytes * 8) {
          byte[] src = fw.data();
          long at = unzipValidity(s, levels, src, rowBytes, n, valid, row);
          for (long r = 0; r < n; r++) {
            if (bool) {
              FslValidity.copyBits(src, (r * rowBytes + at) * 8, bits, (row + r) * s.leafItems(), s.leafItems());
            } else {
              data.setBytes((row + r) * vb, src, (int) (r * rowBytes + at), vb);
            }
          }
        } else if (p.values() instanceof DataBlock.FixedWidth fw && !(s.leafBits() % 8 == 0 && fw.bitsPerValue() == physical.rowBits())
            && truncatedLevels(s, fw.bitsPerValue()) > 0) {
          // the reference's Constant{} below some level: that level's validity and above, the rest null
          int kept = truncatedLevels(s, fw.bitsPerValue());
          unzipValidity(s, kept, fw.data(), fw.bitsPerValue() / 8, n, valid, row);
          if (!bool) {
            data.setZero(row * vb, n * vb);
          }
        } else if (p.values() instanceof DataBlock.FixedWidth fw) {
          if (bool) {
            throw LanceCodecException.corrupt("page decoded to " + fw.bitsPerValue() + "-bit values where the schema needs "
                + rowBytes * 8 + "-bit fixed-size lists of booleans");
          }
          VectorFiller.checkWidth(fw, physical.rowBits());
          data.setBytes(row * vb, fw.data(), 0, n * vb);
          for (int l = 0; l < levels; l++) {
            FslValidity.setBits(valid[l], row * s.items(l), n * s.items(l));
          }
        } else if (!bool) {
          data.setZero(row * vb, n * vb);
        }
        row += n;
      }
      vector.loadFieldBuffers(new ArrowFieldNode(total, nulls), List.of(owned.copyOf(validity, validity.length)));
      for (int l = 0; l < levels; l++) {
        long count = (long) total * s.items(l);
        ArrowBuf vbuf = owned.copyOf(valid[l], valid[l].length);
        ArrowFieldNode node = new ArrowFieldNode(count, count - countOnes(valid[l], count));
        FieldVector child = chain.get(l + 1);
        if (l + 1 < levels) {
          child.loadFieldBuffers(node, List.of(vbuf));
        } else {
          child.loadFieldBuffers(node, List.of(vbuf, bool ? owned.copyOf(bits, bits.length) : data));
        }
      }
    } finally {
      owned.close();
    }
    for (int l = levels - 1; l >= 0; l--) {
      chain.get(l).setValueCount(LanceCodecException.checkedInt(l == 0 ? total : total * s.items(l - 1), "fixed-size lists"));
    }
  }

  private static long sum(long[] a) {
    long t = 0;
    for (long x : a) {
      t += x;
    }
    return t;
  }

  /**
   * Validity from the levels (0 = valid) like the other vectors', except that pieces without
   * values but with levels take it from the levels alone: the reference's rows whose items are
   * all null (full-zip rows of Constant{}) are valid lists of null items.
   */
  private static int fillListValidity(byte[] bits, List<DecodedPage> pieces) {
    int row = 0;
    int nulls = 0;
    for (DecodedPage p : pieces) {
      int n = (int) p.numRows();
      short[] def = p.defLevels();
      if (def == null) {
        if (p.values() instanceof DataBlock.AllNull) {
          nulls += n;
        } else {
          VectorFiller.setRange(bits, row, n);
        }
      } else {
        for (int i = 0; i < n; i++) {
          if (def[i] == 0) {
            bits[(row + i) >>> 3] |= (byte) (1 << ((row + i) & 7));
          } else {
            nulls++;
          }
        }
      }
      row += n;
    }
    return nulls;
  }

  /** The levels k (1..levels) whose validity alone makes rows of {@code bits}; 0 if none. */
  private static int truncatedLevels(FslShape s, long bits) {
    long b = 0;
    for (int l = 0; l < s.levels(); l++) {
      b += s.validityBytes(l);
      if (b * 8 == bits) {
        return l + 1;
      }
    }
    return 0;
  }

  private static long countOnes(byte[] bits, long n) {
    long ones = 0;
    int whole = (int) (n >>> 3);
    for (int i = 0; i < whole; i++) {
      ones += Integer.bitCount(bits[i] & 0xFF);
    }
    for (long i = (long) whole * 8; i < n; i++) {
      ones += (bits[(int) (i >>> 3)] >> (i & 7)) & 1;
    }
    return ones;
  }

  /**
   * Copies the validity bitmaps of the outer {@code levels} levels out of {@code n} zipped rows of
   * {@code rowBytes} each into {@code valid}, from row {@code row} on; returns the bytes they take
   * at the start of a row.
   */
  private static long unzipValidity(FslShape s, int levels, byte[] src, long rowBytes, long n, byte[][] valid, long row) {
    long at = 0;
    for (int l = 0; l < levels; l++) {
      long items = s.items(l);
      for (long r = 0; r < n; r++) {
        FslValidity.copyBits(src, (r * rowBytes + at) * 8, valid[l], (row + r) * items, items);
      }
      at += s.validityBytes(l);
    }
    return at;
  }
}
