package io.lancecodec.codec.general;

import io.lancecodec.format.pb.v21.BufferCompression;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.Flat;
import io.lancecodec.format.pb.v21.Variable;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.PerValueCompressor;
import io.lancecodec.spi.PerValueDecompressor;

/**
 * General compression in full-zip pages: every value becomes its own frame, so values stay
 * individually addressable; the new offsets are the running frame sizes (same offset width).
 * Encoding {@code general{cfg, variable{flat{32|64}}}}. A null item reaches the decoder as an
 * empty value and decodes to an empty value.
 */
final class GeneralPerValue {
  private GeneralPerValue() {}

  static CompressiveEncoding encoding(BufferCompression compression, int bitsPerOffset) {
    CompressiveEncoding variable =
        CompressiveEncoding.newBuilder()
            .setVariable(
                Variable.newBuilder()
                    .setOffsets(CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bitsPerOffset))))
            .build();
    return GeneralMiniBlock.wrap(compression, variable);
  }

  /** The 2.3 form: {@code General{cfg, values = Variable{offsets = Flat{32|64}}}} (or snappy's extension), the same frames. */
  static io.lancecodec.format.pb.v23.CompressiveEncoding encoding23(
      java.util.function.UnaryOperator<io.lancecodec.format.pb.v23.CompressiveEncoding> node23, int bitsPerOffset) {
    io.lancecodec.format.pb.v23.CompressiveEncoding variable = io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder()
        .setVariable(io.lancecodec.format.pb.v23.Variable.newBuilder()
            .setOffsets(io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder()
                .setFlat(io.lancecodec.format.pb.v23.Flat.newBuilder().setBitsPerValue(bitsPerOffset))))
        .build();
    return node23.apply(variable);
  }

  /** Each value one frame, written straight into one growing output array. */
  static final class Compressor implements PerValueCompressor {
    private final BufferCodec codec;
    private final BufferCompression compression;
    private final java.util.function.UnaryOperator<io.lancecodec.format.pb.v23.CompressiveEncoding> node23;

    Compressor(BufferCodec codec, BufferCompression compression) {
      this.codec = codec;
      this.compression = compression;
      this.node23 = null;
    }

    /** 2.3: the same frames under the 2.3 descriptor. */
    Compressor(BufferCodec codec, java.util.function.UnaryOperator<io.lancecodec.format.pb.v23.CompressiveEncoding> node23) {
      this.codec = codec;
      this.compression = null;
      this.node23 = node23;
    }

    @Override
    public Encoded<DataBlock> compress(DataBlock block) {
      DataBlock.VariableWidth vw = (DataBlock.VariableWidth) block;
      int n = (int) vw.numValues();
      int w = vw.bitsPerOffset() / 8;
      byte[] offsets = new byte[(n + 1) * w];
      byte[] out = new byte[Math.max(64, codec.maxFrameBytes((int) Math.min(Integer.MAX_VALUE / 2, vw.offset(n) - vw.offset(0))) / 2)];
      int pos = 0;
      for (int i = 0; i < n; i++) {
        long start = vw.offset(i);
        int len = (int) (vw.offset(i + 1) - start);
        int room = codec.maxFrameBytes(len);
        if (room > out.length - pos) {
          out = java.util.Arrays.copyOf(out, LanceCodecException.checkedInt(Math.max(2L * out.length, (long) pos + room), "general: frames"));
        }
        pos += codec.compressInto(vw.data(), (int) start, len, out, pos);
        LittleEndian.putUnsigned(offsets, (i + 1) * w, w, pos);
      }
      return new Encoded<>(
          new DataBlock.VariableWidth(offsets, vw.bitsPerOffset(), java.util.Arrays.copyOf(out, pos), n),
          node23 != null ? encoding23(node23, vw.bitsPerOffset()) : encoding(compression, vw.bitsPerOffset()));
    }
  }

  static final class Decompressor implements PerValueDecompressor {
    private final BufferCodec codec;
    private final PerValueDecompressor inner;

    Decompressor(BufferCodec codec, PerValueDecompressor inner) {
      this.codec = codec;
      this.inner = inner;
    }

    @Override
    public DataBlock decompress(DataBlock block, DecodeBuffers reuse) {
      if (!(block instanceof DataBlock.VariableWidth vw)) {
        throw LanceCodecException.corrupt("general: per-value frames must be variable-width values");
      }
      int n = LanceCodecException.checkedInt(vw.numValues(), "general: value count");
      int w = vw.bitsPerOffset() / 8;
      byte[] src = vw.data();
      // First pass: every frame's declared length, checked, so the output is allocated once.
      long[] declared = new long[n];
      long total = 0;
      long prev = vw.offset(0);
      for (int i = 0; i < n; i++) {
        long end = vw.offset(i + 1);
        if (!(prev >= 0 && prev <= end && end <= src.length)) {
          throw LanceCodecException.corrupt(
              "general: value " + i + " spans bytes [" + prev + ", " + end + ") outside " + src.length);
        }
        int len = (int) (end - prev);
        long d = len == 0 ? 0 : codec.declaredLength(src, (int) prev, len, GeneralFormat.MAX_PER_VALUE_OUTPUT - total);
        if (d < 0) {
          d = -1;
        } else {
          total += d;
        }
        declared[i] = d;
        prev = end;
      }
      // Second pass: each frame into its own fresh array (a forged back-reference can never
      // reach a neighbouring value's bytes), then appended; only legacy bare zstd streams,
      // which declare no length, can grow the output beyond the first pass's total.
      byte[] out = new byte[(int) total];
      byte[] offsets = new byte[(n + 1) * w];
      int pos = 0;
      prev = vw.offset(0);
      for (int i = 0; i < n; i++) {
        long end = vw.offset(i + 1);
        int len = (int) (end - prev);
        if (len > 0) {
          long budget = declared[i] >= 0 ? declared[i] : GeneralFormat.MAX_PER_VALUE_OUTPUT - pos;
          byte[] plain = codec.decompress(src, (int) prev, len, budget);
          if (pos + plain.length > out.length) {
            out = java.util.Arrays.copyOf(out, LanceCodecException.checkedInt((long) pos + plain.length, "general: output"));
          }
          System.arraycopy(plain, 0, out, pos, plain.length);
          pos += plain.length;
        }
        LittleEndian.putUnsigned(offsets, (i + 1) * w, w, pos);
        prev = end;
      }
      if (pos != out.length) {
        out = java.util.Arrays.copyOf(out, pos);
      }
      return inner.decompress(new DataBlock.VariableWidth(offsets, vw.bitsPerOffset(), out, n), reuse);
    }
  }
}
