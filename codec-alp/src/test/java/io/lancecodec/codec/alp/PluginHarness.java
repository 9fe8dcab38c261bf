package io.lancecodec.codec.alp;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import io.lancecodec.testkit.MiniBlockChunks;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The plugin as the runtime drives it, without the runtime: a proposal context with no other
 * plugins, a registry stand-in that only knows {@code Flat}, and a page's chunks cut out of a
 * {@link MiniBlockCompressed} and decoded one by one through the plugin's decompressor.
 */
final class PluginHarness {
  static final AlpPlugin PLUGIN = new AlpPlugin();

  private PluginHarness() {}

  record Context(FieldOptions options, FileVersion version, long sizeToBeat) implements ProposalContext {
    Context(FieldOptions options, FileVersion version) {
      this(options, version, Long.MAX_VALUE);
    }

    @Override
    public Stats stats() {
      // ALP reads no statistics: its gates sample the page itself
      return new Stats.Other(0);
    }

    @Override
    public Optional<Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock block) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock block) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock block) {
      return Optional.empty();
    }
  }

  static Context context(FieldOptions.Mode mode) {
    return new Context(FieldOptions.builder().alp(mode).build(), FileVersion.V2_3);
  }

  /** The registry's answers for the only child an Alp node has, Flat. */
  static final Decoders DECODERS = new Decoders() {
    @Override
    public MiniBlockDecompressor miniBlock(Message compressiveEncoding) {
      throw new AssertionError("alp opens no child decoder");
    }

    @Override
    public BlockDecompressor block(Message compressiveEncoding) {
      throw new AssertionError("alp opens no child decoder");
    }

    @Override
    public PerValueDecompressor perValue(Message compressiveEncoding) {
      throw new AssertionError("alp opens no child decoder");
    }

    @Override
    public EncodingSummary describe(Message compressiveEncoding) {
      CompressiveEncoding e = (CompressiveEncoding) compressiveEncoding;
      return e.hasFlat() ? EncodingSummary.of("flat", String.valueOf(e.getFlat().getBitsPerValue()))
          : EncodingSummary.of("?", e.getCompressionCase().name());
    }
  };

  static DataBlock.FixedWidth block(double[] v) {
    byte[] b = new byte[8 * v.length];
    for (int i = 0; i < v.length; i++) {
      LittleEndian.putLong(b, 8 * i, Double.doubleToRawLongBits(v[i]));
    }
    return new DataBlock.FixedWidth(b, 64, v.length);
  }

  static DataBlock.FixedWidth block(float[] v) {
    byte[] b = new byte[4 * v.length];
    for (int i = 0; i < v.length; i++) {
      LittleEndian.putInt(b, 4 * i, Float.floatToRawIntBits(v[i]));
    }
    return new DataBlock.FixedWidth(b, 32, v.length);
  }

  static DataBlock.FixedWidth block(long[] v) {
    byte[] b = new byte[8 * v.length];
    for (int i = 0; i < v.length; i++) {
      LittleEndian.putLong(b, 8 * i, v[i]);
    }
    return new DataBlock.FixedWidth(b, 64, v.length);
  }

  static DataBlock.FixedWidth block(int[] v) {
    byte[] b = new byte[4 * v.length];
    for (int i = 0; i < v.length; i++) {
      LittleEndian.putInt(b, 4 * i, v[i]);
    }
    return new DataBlock.FixedWidth(b, 32, v.length);
  }

  /** The page decoded chunk by chunk through the plugin's decompressor for its own descriptor. */
  static byte[] decode(MiniBlockCompressed page, int bits) {
    FixedWidthMiniBlockDecompressor d =
        (FixedWidthMiniBlockDecompressor) PLUGIN.openMiniBlock(((CompressiveEncoding) page.encoding()).getAlp(), DECODERS);
    byte[] out = new byte[(int) page.numValues() * bits / 8];
    int[] counts = MiniBlockChunks.counts(page);
    int at = 0;
    io.lancecodec.spi.DecodeBuffers reuse = new io.lancecodec.spi.DecodeBuffers();
    for (int c = 0; c < counts.length; c++) {
      int n = counts[c];
      DataBlock.FixedWidth fw = (DataBlock.FixedWidth) d.decompress(MiniBlockChunks.chunk(page, c), n, c % 2 == 0 ? reuse : null);
      System.arraycopy(fw.data(), 0, out, at, n * bits / 8);
      at += n * bits / 8;
    }
    return out;
  }
}
