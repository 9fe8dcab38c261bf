package io.lancecodec.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Constant;
import io.lancecodec.format.pb.v23.Delta;
import io.lancecodec.format.pb.v23.Dictionary;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.InlineBitpacking;
import io.lancecodec.format.pb.v23.OutOfLineBitpacking;
import io.lancecodec.format.pb.v23.Range;
import io.lancecodec.format.pb.v23.Rle;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.HexFormat;
import java.util.Random;

/** 2.3 descriptors, byte vectors and sequences for the generic block tests, and the registry they run on. */
final class G23 {
  static final Plugins REGISTRY = Plugins.discover(G23.class.getClassLoader());
  static final RuntimeLayoutContext CTX = new RuntimeLayoutContext(REGISTRY, FileVersion.V2_3, b -> 0L);

  static final String[] SHAPES = {
    "random", "small", "sorted", "constant", "one", "empty", "arithmetic", "runny", "fewDistinct", "nearMax", "sortedRunny"
  };

  private G23() {}

  static CompressiveEncoding flat(long bits) {
    return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
  }

  static CompressiveEncoding constant(byte[] scalar) {
    return CompressiveEncoding.newBuilder().setConstant(Constant.newBuilder().setValue(ByteString.copyFrom(scalar))).build();
  }

  static CompressiveEncoding empty() {
    return CompressiveEncoding.newBuilder().setConstant(Constant.getDefaultInstance()).build();
  }

  static CompressiveEncoding range(long bits, long start, long step) {
    return CompressiveEncoding.newBuilder()
        .setRange(Range.newBuilder().setUncompressedBitsPerValue(bits).setStart(start).setStep(step)).build();
  }

  static CompressiveEncoding delta(long bits, long base, CompressiveEncoding deltas) {
    Delta.Builder d = Delta.newBuilder().setUncompressedBitsPerValue(bits).setBase(base);
    if (deltas != null) {
      d.setDeltas(deltas);
    }
    return CompressiveEncoding.newBuilder().setDelta(d).build();
  }

  static CompressiveEncoding inline(long bits) {
    return CompressiveEncoding.newBuilder().setInlineBitpacking(InlineBitpacking.newBuilder().setUncompressedBitsPerValue(bits)).build();
  }

  static CompressiveEncoding ool(long bits, long width) {
    return CompressiveEncoding.newBuilder().setOutOfLineBitpacking(
        OutOfLineBitpacking.newBuilder().setUncompressedBitsPerValue(bits).setValues(flat(width))).build();
  }

  static CompressiveEncoding rle(CompressiveEncoding values, CompressiveEncoding lengths) {
    Rle.Builder r = Rle.newBuilder();
    if (values != null) {
      r.setValues(values);
    }
    if (lengths != null) {
      r.setRunLengths(lengths);
    }
    return CompressiveEncoding.newBuilder().setRle(r).build();
  }

  static CompressiveEncoding dict(CompressiveEncoding indices, CompressiveEncoding items, long numItems) {
    Dictionary.Builder d = Dictionary.newBuilder().setNumDictionaryItems(numItems);
    if (indices != null) {
      d.setIndices(indices);
    }
    if (items != null) {
      d.setItems(items);
    }
    return CompressiveEncoding.newBuilder().setDictionary(d).build();
  }

  /** Bytes from hex with spaces and newlines for readability. */
  static byte[] hex(String s) {
    return HexFormat.of().parseHex(s.replaceAll("\\s", ""));
  }

  static byte[] u32s(long... v) {
    byte[] out = new byte[4 * v.length];
    for (int i = 0; i < v.length; i++) {
      LittleEndian.putInt(out, 4 * i, (int) v[i]);
    }
    return out;
  }

  static byte[] u64s(long... v) {
    byte[] out = new byte[8 * v.length];
    for (int i = 0; i < v.length; i++) {
      LittleEndian.putLong(out, 8 * i, v[i]);
    }
    return out;
  }

  static byte[] concat(byte[]... parts) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  static DataBlock.FixedWidth block(long[] v, int bits) {
    return new DataBlock.FixedWidth(bits == 32 ? u32s(v) : u64s(v), bits, v.length);
  }

  static long[] values(DataBlock block) {
    DataBlock.FixedWidth fw = (DataBlock.FixedWidth) block;
    long[] out = new long[(int) fw.numValues()];
    for (int i = 0; i < out.length; i++) {
      out[i] = LittleEndian.getUnsigned(fw.data(), i * fw.bitsPerValue() / 8, fw.bitsPerValue() / 8);
    }
    return out;
  }

  /** Decodes through the container's entry point: the payload goes in exactly when the codec reads one. */
  static long[] decode(CompressiveEncoding e, byte[] payload, long n, int bits) {
    io.lancecodec.spi.BlockDecompressor d = CTX.unsignedBlock(e, bits);
    assertEquals(d.consumesPayload(), payload.length > 0, "payload iff the codec reads one: " + e);
    return values(d.decompress(payload, n));
  }

  /** The seeded sequence of a shape. */
  static long[] make(String shape, int bits, int n, long seed) {
    Random rnd = new Random(seed);
    long mask = bits == 64 ? -1L : 0xFFFFFFFFL;
    int len = shape.equals("empty") ? 0 : shape.equals("one") ? Math.min(n, 1) : n;
    long[] v = new long[len];
    long acc = rnd.nextInt(1000);
    long[] distinct = {rnd.nextLong() & mask, rnd.nextLong() & mask, 7, rnd.nextLong() & mask, 0};
    for (int i = 0; i < len; i++) {
      switch (shape) {
        case "random":
        case "one":
          v[i] = rnd.nextLong() & mask;
          break;
        case "small":
          v[i] = rnd.nextInt(1 << (1 + rnd.nextInt(12)));
          break;
        case "sorted":
          acc += rnd.nextInt(50);
          v[i] = acc;
          break;
        case "constant":
          v[i] = 0xDEADBEEFL;
          break;
        case "arithmetic":
          v[i] = 3 + 17L * i;
          break;
        case "runny":
          v[i] = i > 0 && rnd.nextInt(30) != 0 ? v[i - 1] : rnd.nextInt(1 << 20);
          break;
        case "fewDistinct":
          v[i] = distinct[rnd.nextInt(distinct.length)];
          break;
        case "nearMax":
          v[i] = mask - rnd.nextInt(100);
          break;
        default: // sortedRunny
          if (rnd.nextInt(20) == 0) {
            acc += 1 + rnd.nextInt(5);
          }
          v[i] = acc;
      }
    }
    return v;
  }

  /** Fails unless {@code r} throws one CORRUPT line. */
  static LanceCodecException corrupt(Runnable r) {
    LanceCodecException e = assertThrows(LanceCodecException.class, r::run);
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
    assertTrue(!e.getMessage().isBlank() && !e.getMessage().contains("\n"), e.getMessage());
    return e;
  }
}
