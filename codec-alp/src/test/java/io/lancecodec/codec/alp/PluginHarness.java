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

  /** Chunk {@code c} of a page: its four buffers, copied into one array with a gap before each. */
  static MiniBlockBuffers chunk(MiniBlockCompressed page, int c) {
    int buffers = page.buffers().size();
    int[] at = new int[buffers];
    for (int k = 0; k < c; k++) {
      for (int i = 0; i < buffers; i++) {
        at[i] += page.chunks().get(k).bufferSizes()[i];
      }
    }
    int[] sizes = page.chunks().get(c).bufferSizes().clone();
    int total = 0;
    for (int s : sizes) {
      total += s + 3;
    }
    byte[] all = new byte[total];
    java.util.Arrays.fill(all, (byte) 0x5A);
    int[] offsets = new int[buffers];
    int pos = 0;
    for (int i = 0; i < buffers; i++) {
      pos += 3;
      offsets[i] = pos;
      System.arraycopy(page.buffers().get(i), at[i], all, pos, sizes[i]);
      pos += sizes[i];
    }
    return new MiniBlockBuffers(all, offsets, sizes);
  }

  /** Values in each chunk, as the layout derives them: 2^log for every chunk but the last. */
  static List<Integer> chunkValues(MiniBlockCompressed page) {
    List<Integer> out = new ArrayList<>();
    long seen = 0;
    List<MiniBlockChunk> chunks = page.chunks();
    for (int c = 0; c < chunks.size(); c++) {
      int n = c == chunks.size() - 1 ? (int) (page.numValues() - seen) : 1 << chunks.get(c).logNumValues();
      out.add(n);
      seen += n;
    }
    return out;
  }

  /** The page decoded chunk by chunk through the plugin's decompressor for its own descriptor. */
  static byte[] decode(MiniBlockCompressed page, int bits) {
    FixedWidthMiniBlockDecompressor d =
        (FixedWidthMiniBlockDecompressor) PLUGIN.openMiniBlock(((CompressiveEncoding) page.encoding()).getAlp(), DECODERS);
    byte[] out = new byte[(int) page.numValues() * bits / 8];
    List<Integer> counts = chunkValues(page);
    int at = 0;
    io.lancecodec.spi.DecodeBuffers reuse = new io.lancecodec.spi.DecodeBuffers();
    for (int c = 0; c < counts.size(); c++) {
      int n = counts.get(c);
      DataBlock.FixedWidth fw = (DataBlock.FixedWidth) d.decompress(chunk(page, c), n, c % 2 == 0 ? reuse : null);
      System.arraycopy(fw.data(), 0, out, at, n * bits / 8);
      at += n * bits / 8;
    }
    return out;
  }
}
