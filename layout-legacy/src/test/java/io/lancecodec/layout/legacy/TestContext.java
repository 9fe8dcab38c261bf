package io.lancecodec.layout.legacy;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.Flat;
import io.lancecodec.format.pb.v21.Variable;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.layout.LayoutContext;
import io.lancecodec.spi.layout.PageSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A layout context with the plainest codecs there are, so the layout is tested alone: Flat
 * mini-block chunks of 256 values, levels and dictionaries stored raw, full-zip values as they
 * are. Enough for fixed-width values of whole bytes and, per value, variable-width ones.
 */
final class TestContext implements LayoutContext {
  static final int CHUNK = 256;

  private final FileVersion version;

  TestContext(FileVersion version) {
    this.version = version;
  }

  /** Options that keep dictionaries out (their items would need a variable-width block codec). */
  static final FieldOptions NO_DICTIONARY = FieldOptions.builder().dictTooSmall(Integer.MAX_VALUE).build();

  static CompressiveEncoding flat(long bits) {
    return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
  }

  @Override
  public FileVersion version() {
    return version;
  }

  @Override
  public MiniBlockCompressed compressMiniBlock(DataBlock values, FieldOptions options) {
    DataBlock.FixedWidth fw = (DataBlock.FixedWidth) values;
    int wb = fw.bitsPerValue() / 8;
    int n = (int) fw.numValues();
    List<MiniBlockChunk> chunks = new ArrayList<>();
    for (int s = 0; s < n; s += CHUNK) {
      int m = Math.min(CHUNK, n - s);
      chunks.add(new MiniBlockChunk(new int[] {m * wb}, s + m == n ? 0 : Integer.numberOfTrailingZeros(CHUNK)));
    }
    return new MiniBlockCompressed(List.of(Arrays.copyOf(fw.data(), n * wb)), chunks, n, flat(fw.bitsPerValue()));
  }

  @Override
  public Encoded<DataBlock> compressPerValue(DataBlock values, FieldOptions options) {
    if (values instanceof DataBlock.VariableWidth vw) {
      return new Encoded<>(vw, CompressiveEncoding.newBuilder()
          .setVariable(Variable.newBuilder().setOffsets(flat(vw.bitsPerOffset()))).build());
    }
    return new Encoded<>(values, flat(((DataBlock.FixedWidth) values).bitsPerValue()));
  }

  @Override
  public Encoded<byte[]> compressBlock(DataBlock values, FieldOptions options) {
    return raw(values);
  }

  @Override
  public BlockCompressor levelsFor(DataBlock levels, long sliceValues) {
    return TestContext::raw;
  }

  private static Encoded<byte[]> raw(DataBlock values) {
    DataBlock.FixedWidth fw = (DataBlock.FixedWidth) values;
    return new Encoded<>(Arrays.copyOf(fw.data(), fw.usedBytes()), flat(fw.bitsPerValue()));
  }

  private static long flatBits(Message encoding) {
    CompressiveEncoding e = (CompressiveEncoding) encoding;
    if (!e.hasFlat()) {
      throw LanceCodecException.unsupported("test context: only Flat, got " + e.getCompressionCase());
    }
    long bits = e.getFlat().getBitsPerValue();
    if (bits <= 0 || bits % 8 != 0 || bits > 1 << 20) {
      throw LanceCodecException.corrupt("test flat: " + bits + " bits");
    }
    return bits;
  }

  @Override
  public MiniBlockDecompressor miniBlock(Message encoding) {
    int bits = (int) flatBits(encoding);
    return new FixedWidthMiniBlockDecompressor() {
      @Override
      public int bitsPerValue() {
        return bits;
      }

      @Override
      public void decodeInto(MiniBlockBuffers chunk, int n, int from, int to, byte[] dst, int dstOffset) {
        chunk.expect(1, "test flat");
        if ((long) n * bits / 8 > chunk.size(0)) {
          throw LanceCodecException.corrupt("test flat: " + n + " values need more than " + chunk.size(0) + " bytes");
        }
        System.arraycopy(chunk.bytes(), chunk.offset(0) + from * bits / 8, dst, dstOffset, (to - from) * bits / 8);
      }
    };
  }

  @Override
  public BlockDecompressor block(Message encoding) {
    long bits = flatBits(encoding);
    return (data, n) -> {
      LanceCodecException.check(n >= 0 && n * bits / 8 <= data.length, "test flat block: " + n + " values in " + data.length + " bytes");
      return new DataBlock.FixedWidth(data, (int) bits, n);
    };
  }

  @Override
  public PerValueDecompressor perValue(Message encoding) {
    CompressiveEncoding e = (CompressiveEncoding) encoding;
    if (e.hasVariable()) {
      return (block, reuse) -> block;
    }
    long bits = flatBits(encoding);
    return new PerValueDecompressor() {
      @Override
      public DataBlock decompress(DataBlock block, io.lancecodec.spi.DecodeBuffers reuse) {
        LanceCodecException.check(block instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() == bits, "test flat: wrong width");
        return block;
      }

      @Override
      public long plainBits() {
        return bits;
      }
    };
  }

  @Override
  public EncodingSummary describe(Message encoding) {
    return EncodingSummary.of(((CompressiveEncoding) encoding).getCompressionCase().name().toLowerCase(java.util.Locale.ROOT), "");
  }

  /** A page's buffers in memory; reads outside a buffer are CORRUPT, as the runtime's are. */
  record Source(List<byte[]> buffers) implements PageSource {
    @Override
    public int numBuffers() {
      return buffers.size();
    }

    @Override
    public long bufferSize(int buffer) {
      return buffers.get(buffer).length;
    }

    @Override
    public byte[] read(int buffer, long offset, int length) {
      byte[] b = buffers.get(buffer);
      if (offset < 0 || length < 0 || offset > b.length - length) {
        throw LanceCodecException.corrupt("test source: [" + offset + ", +" + length + ") outside buffer " + buffer + " of " + b.length);
      }
      return Arrays.copyOfRange(b, (int) offset, (int) offset + length);
    }
  }
}
