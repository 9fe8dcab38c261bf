package io.lancecodec.codec.fsst;

import com.google.protobuf.Message;
import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Test data and plumbing: variable-width blocks, a proposal context backed by the real registry. */
final class TestBlocks {
  /** The registry found on the test class path: built-in codecs, bitpack, fsst, legacy layouts. */
  static final CodecRegistry REGISTRY = CodecRegistry.discover();

  private TestBlocks() {}

  static DataBlock.VariableWidth block(List<byte[]> values, int bits) {
    int w = bits / 8;
    int n = values.size();
    byte[] offsets = new byte[(n + 1) * w];
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    for (int i = 0; i < n; i++) {
      data.write(values.get(i), 0, values.get(i).length);
      LittleEndian.putUnsigned(offsets, (i + 1) * w, w, data.size());
    }
    return new DataBlock.VariableWidth(offsets, bits, data.toByteArray(), n);
  }

  static List<byte[]> values(DataBlock block) {
    DataBlock.VariableWidth vw = (DataBlock.VariableWidth) block;
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < vw.numValues(); i++) {
      out.add(Arrays.copyOfRange(vw.data(), (int) vw.offset(i), (int) vw.offset(i + 1)));
    }
    return out;
  }

  static List<byte[]> utf8(List<String> strings) {
    List<byte[]> out = new ArrayList<>();
    for (String s : strings) {
      out.add(s.getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }

  static void assertSameValues(List<byte[]> expected, List<byte[]> actual, String what) {
    assertEquals(expected.size(), actual.size(), what + ": value count");
    for (int i = 0; i < expected.size(); i++) {
      if (!Arrays.equals(expected.get(i), actual.get(i))) {
        throw new AssertionError(what + ": value " + i + " differs (" + expected.get(i).length + " vs "
            + actual.get(i).length + " bytes)");
      }
    }
  }

  /** Lines of a gzipped golden expectation file (null rows are the line {@code \N}). */
  static List<String> expectedLines(String name) {
    try (InputStream in = new GZIPInputStream(resource("golden/" + name + ".expected.txt.gz"))) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
      lines.remove(lines.size() - 1);
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static InputStream resource(String path) {
    InputStream in = TestBlocks.class.getClassLoader().getResourceAsStream(path);
    if (in == null) {
      throw new AssertionError("missing test resource " + path);
    }
    return in;
  }

  /** Real strings (non-null rows of the golden expectations), about 250 KB of mail text. */
  static List<String> realStrings() {
    List<String> out = new ArrayList<>();
    for (String name : FsstGoldenTest.NAMES) {
      for (String s : expectedLines(name)) {
        if (!s.equals("\\N")) {
          out.add(s);
        }
      }
    }
    return out;
  }

  /** Random values of the given shape, seeded. */
  static List<byte[]> random(String shape, int n, long seed) {
    Random rnd = new Random(seed);
    List<byte[]> out = new ArrayList<>();
    String[] words = {"lance", "codec", "fsst", "symbol", "table", "mail", "from", "localhost", ".com", "http://", "\u00fc", "\u20ac", "\ud83d\ude00", "\u4e2d\u6587", " "};
    for (int i = 0; i < n; i++) {
      switch (shape) {
        case "empty":
          out.add(new byte[0]);
          break;
        case "binary":
          {
            byte[] b = new byte[rnd.nextInt(40)];
            rnd.nextBytes(b);
            out.add(b);
            break;
          }
        case "allbytes":
          {
            // every byte value, including 255 (the escape) and 0, in runs and alone
            byte[] b = new byte[1 + rnd.nextInt(300)];
            for (int k = 0; k < b.length; k++) {
              b[k] = (byte) (rnd.nextInt(4) == 0 ? 255 : rnd.nextInt(256));
            }
            out.add(b);
            break;
          }
        case "long":
          {
            StringBuilder sb = new StringBuilder();
            int len = 8 * 1024 + rnd.nextInt(4096);
            while (sb.length() < len) {
              sb.append(words[rnd.nextInt(words.length)]);
            }
            out.add(sb.toString().getBytes(StandardCharsets.UTF_8));
            break;
          }
        default:
          {
            // "text": words, unicode, some empty values
            StringBuilder sb = new StringBuilder();
            int k = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(12);
            for (int j = 0; j < k; j++) {
              sb.append(words[rnd.nextInt(words.length)]);
            }
            out.add(sb.toString().getBytes(StandardCharsets.UTF_8));
          }
      }
    }
    return out;
  }

  static Stats statsOf(DataBlock.VariableWidth vw) {
    long max = 0;
    for (int i = 0; i < vw.numValues(); i++) {
      max = Math.max(max, vw.offset(i + 1) - vw.offset(i));
    }
    long data = vw.numValues() == 0 ? 0 : vw.offset((int) vw.numValues()) - vw.offset(0);
    return new Stats.VariableWidth(vw.numValues(), vw.bitsPerOffset(), data, max);
  }

  /** Options with {@code compression} set, or none: the only key these tests vary. */
  static FieldOptions options(String... kv) {
    FieldOptions.Builder b = FieldOptions.builder();
    for (int i = 0; i < kv.length; i += 2) {
      if (!kv[i].equals("compression")) {
        throw new IllegalArgumentException("test options know only compression, not " + kv[i]);
      }
      b.compression(kv[i + 1]);
    }
    return b.build();
  }

  static CodecPlugin builtin() {
    return REGISTRY.codec("builtin").orElseThrow();
  }

  /** A proposal context whose inner offers come from the built-in codecs (Variable), like the runtime's. */
  record Ctx(Stats stats, FieldOptions options, FileVersion version) implements ProposalContext {
    static Ctx of(DataBlock.VariableWidth vw, FieldOptions options) {
      return new Ctx(statsOf(vw), options, FileVersion.V2_1);
    }

    @Override
    public Optional<Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock block) {
      return builtin().proposeMiniBlock(block, of((DataBlock.VariableWidth) block, options));
    }

    @Override
    public Optional<Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock block) {
      return builtin().proposePerValue(block, of((DataBlock.VariableWidth) block, options));
    }

    @Override
    public Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock block) {
      return Optional.empty();
    }
  }

  /**
   * Decodes every chunk of a mini-block result with the decompressor the registry opens for it,
   * each chunk twice: into new arrays and into arrays reused from chunk to chunk, which must agree.
   */
  static List<byte[]> decodeChunks(MiniBlockCompressed c) {
    MiniBlockDecompressor dec = REGISTRY.decoders().miniBlock((Message) c.encoding());
    DecodeBuffers reuse = new DecodeBuffers();
    int[] pos = new int[c.buffers().size()];
    long item = 0;
    List<byte[]> out = new ArrayList<>();
    for (int k = 0; k < c.chunks().size(); k++) {
      MiniBlockChunk ch = c.chunks().get(k);
      boolean last = k == c.chunks().size() - 1;
      long n = last ? c.numValues() - item : 1L << ch.logNumValues();
      assertTrue(last || (ch.logNumValues() > 0 && n <= 4096), "non-last chunk holds a power of two");
      byte[][] bufs = new byte[pos.length][];
      for (int b = 0; b < pos.length; b++) {
        bufs[b] = Arrays.copyOfRange(c.buffers().get(b), pos[b], pos[b] + ch.bufferSizes()[b]);
        pos[b] += ch.bufferSizes()[b];
      }
      List<byte[]> chunk = values(dec.decompress(MiniBlockBuffers.of(bufs), (int) n, null));
      assertSameValues(chunk, values(dec.decompress(MiniBlockBuffers.of(bufs), (int) n, reuse)), "chunk " + k + " decoded into reused arrays");
      out.addAll(chunk);
      item += n;
    }
    assertEquals(c.numValues(), item, "chunks cover the page");
    return out;
  }
}
