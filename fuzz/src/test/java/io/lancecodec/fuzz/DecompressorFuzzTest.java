package io.lancecodec.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueDecompressor;

/**
 * Every codec plugin's decompressors (mini-block, block, per-value) under arbitrary encoding
 * messages, opened through the registry as a layout opens them, fed arbitrary bytes. Input:
 *
 * <pre>
 * byte 0       bit 0: grammar (0: Lance 2.1 CompressiveEncoding, 1: 2.3); (byte >> 1) % 3:
 *              context (0 mini-block, 1 block, 2 per value)
 * u16          message length L, then L bytes: the CompressiveEncoding message
 * u16          number of values
 * u8           number of buffers B (1..4), then B u16 sizes, then the buffers' bytes
 * </pre>
 *
 * Per value, buffer 0 holds the values (split evenly into the number of values) and buffer 1,
 * if any, is ignored. The property: the decompressor opens and decodes, or one
 * {@link LanceCodecException} of any kind but INTERNAL is thrown; seeds are real messages and
 * chunks of every plugin ({@link DecompressorSeeds}).
 */
public class DecompressorFuzzTest {
  static final CodecRegistry REGISTRY = CodecRegistry.discover();
  static final int MAX_VALUES = 1 << 16;
  /**
   * The most bytes one decoded block may take here, whatever the heap: 65,536 null rows of a wide
   * fixed-size list legitimately expand to gigabytes, which a reader bounds by its read limit.
   */
  static final long MAX_BLOCK_BYTES = 64L << 20;

  @FuzzTest(maxDuration = "30s")
  void decompress(byte[] input) {
    fuzzerTestOneInput(input);
  }

  public static void fuzzerTestOneInput(byte[] in) {
    Input x = Input.parse(in);
    if (x == null) {
      return;
    }
    try {
      Decoders decoders = REGISTRY.decoders();
      switch (x.context) {
        case 0 -> {
          MiniBlockDecompressor d = decoders.miniBlock(x.message);
          byte[] all = new byte[x.total];
          int[] offsets = new int[x.buffers.length];
          int[] sizes = new int[x.buffers.length];
          int at = 0;
          for (int i = 0; i < x.buffers.length; i++) {
            System.arraycopy(x.buffers[i], 0, all, at, x.buffers[i].length);
            offsets[i] = at;
            sizes[i] = x.buffers[i].length;
            at += sizes[i];
          }
          d.decompress(new MiniBlockBuffers(all, offsets, sizes), x.numValues, new DecodeBuffers(MAX_BLOCK_BYTES));
        }
        case 1 -> {
          BlockDecompressor d = decoders.block(x.message);
          d.decompress(x.buffers[0], x.numValues);
        }
        default -> {
          PerValueDecompressor d = decoders.perValue(x.message);
          d.decompress(perValue(x.buffers[0], x.numValues), new DecodeBuffers(MAX_BLOCK_BYTES));
        }
      }
    } catch (LanceCodecException e) {
      if (e.kind() == LanceCodecException.Kind.INTERNAL) {
        throw new AssertionError("INTERNAL from a decoder fed file bytes: " + e.getMessage(), e);
      }
    }
  }

  /** {@code n} values taking {@code data} in equal parts (the last takes the rest), 32-bit offsets. */
  static DataBlock perValue(byte[] data, int n) {
    byte[] offsets = new byte[4 * (n + 1)];
    for (int i = 0; i <= n; i++) {
      int o = i == n ? data.length : (int) ((long) data.length * i / n);
      io.lancecodec.spi.LittleEndian.putInt(offsets, 4 * i, o);
    }
    return new DataBlock.VariableWidth(offsets, 32, data, n);
  }

  /** A parsed input; null when it is too short or its message does not parse. */
  record Input(boolean v23, int context, Message message, int numValues, byte[][] buffers, int total) {
    static Input parse(byte[] in) {
      if (in.length < 6) {
        return null;
      }
      boolean v23 = (in[0] & 1) != 0;
      int context = ((in[0] & 0xFF) >>> 1) % 3;
      int len = u16(in, 1);
      int at = 3;
      if (in.length < at + len + 3) {
        return null;
      }
      Message message;
      try {
        message = v23
            ? io.lancecodec.format.pb.v23.CompressiveEncoding.parseFrom(java.nio.ByteBuffer.wrap(in, at, len))
            : io.lancecodec.format.pb.v21.CompressiveEncoding.parseFrom(java.nio.ByteBuffer.wrap(in, at, len));
      } catch (InvalidProtocolBufferException e) {
        return null;
      }
      at += len;
      int numValues = Math.max(1, Math.min(MAX_VALUES, u16(in, at)));
      int count = 1 + (in[at + 2] & 3);
      at += 3;
      int[] sizes = new int[count];
      for (int i = 0; i < count; i++) {
        sizes[i] = at + 1 < in.length ? u16(in, at) : 0;
        at += 2;
      }
      byte[][] buffers = new byte[count][];
      int total = 0;
      for (int i = 0; i < count; i++) {
        int size = Math.max(0, Math.min(sizes[i], in.length - at));
        buffers[i] = java.util.Arrays.copyOfRange(in, Math.min(at, in.length), Math.min(at, in.length) + size);
        at += size;
        total += size;
      }
      return new Input(v23, context, message, numValues, buffers, total);
    }
  }

  static int u16(byte[] b, int at) {
    return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
  }
}
