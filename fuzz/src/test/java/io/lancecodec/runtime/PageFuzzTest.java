package io.lancecodec.runtime;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.lancecodec.runtime.plugin.Plugins;
import io.lancecodec.runtime.plugin.RuntimeLayoutContext;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.LayoutPlugin;
import io.lancecodec.spi.layout.PageDecoder;
import io.lancecodec.spi.layout.PageSource;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Every layout plugin's page decoders (legacy 2.1/2.2, planar 2.3) opened on arbitrary page
 * messages and buffers, as the reader opens them, then read in a few row ranges. (In the
 * runtime's package, for the registry's internals; on the class path a test may share it.)
 * Input:
 *
 * <pre>
 * byte 0       version index (2.1, 2.2, 2.3) in bits 0-1; page message kind (the layouts' page
 *              encodings, in a fixed order) in bits 2-7, modulo their number
 * u16          message length L, then L bytes: the page message
 * u32          rows the file says the page holds (at most 2^20 are read)
 * u8           number of buffers B (0..7), then B u16 sizes, then the buffers' bytes
 * </pre>
 *
 * The property: opening and reading succeed, or one {@link LanceCodecException} (not INTERNAL)
 * is thrown. Seeds are the pages of the file target's seed files ({@link #writeSeeds}).
 */
public class PageFuzzTest {
  static final CodecRegistry REGISTRY = CodecRegistry.discover();
  static final FileVersion[] VERSIONS = {FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3};
  static final List<Class<? extends Message>> KINDS = kinds();
  static final long MAX_ROWS = 1 << 12;

  @FuzzTest(maxDuration = "30s")
  void page(byte[] input) {
    fuzzerTestOneInput(input);
  }

  private static List<Class<? extends Message>> kinds() {
    List<Class<? extends Message>> out = new ArrayList<>();
    for (LayoutPlugin l : REGISTRY.internals().layouts()) {
      l.pageEncodings().stream().sorted(java.util.Comparator.comparing(Class::getName)).forEach(out::add);
    }
    return out;
  }

  private static String typeUrl(Class<? extends Message> kind) {
    try {
      Message m = (Message) kind.getMethod("getDefaultInstance").invoke(null);
      return "type.googleapis.com/" + m.getDescriptorForType().getFullName();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  public static void fuzzerTestOneInput(byte[] in) {
    if (in.length < 8) {
      return;
    }
    FileVersion version = VERSIONS[(in[0] & 3) % 3];
    Class<? extends Message> kind = KINDS.get(((in[0] & 0xFF) >>> 2) % KINDS.size());
    int len = u16(in, 1);
    int at = 3;
    if (in.length < at + len + 5) {
      return;
    }
    Plugins plugins = REGISTRY.internals();
    Plugins.Page owner = plugins.pageOwner(typeUrl(kind));
    Message page;
    try {
      page = owner.parser().parseFrom(java.nio.ByteBuffer.wrap(in, at, len));
    } catch (InvalidProtocolBufferException e) {
      return;
    }
    at += len;
    long stored = (in[at] & 0xFFL) | (in[at + 1] & 0xFFL) << 8 | (in[at + 2] & 0xFFL) << 16 | (in[at + 3] & 0xFFL) << 24;
    int count = in[at + 4] & 7;
    at += 5;
    byte[][] buffers = new byte[count][];
    int[] sizes = new int[count];
    for (int i = 0; i < count; i++) {
      sizes[i] = at + 1 < in.length ? u16(in, at) : 0;
      at += 2;
    }
    for (int i = 0; i < count; i++) {
      int from = Math.min(at, in.length);
      buffers[i] = java.util.Arrays.copyOfRange(in, from, Math.min(in.length, from + sizes[i]));
      at += sizes[i];
    }
    try {
      RuntimeLayoutContext ctx = new RuntimeLayoutContext(plugins, version, io.lancecodec.spi.layout.PageCache.NONE);
      long rows = owner.plugin().rows(page, stored);
      PageDecoder d = owner.plugin().open(page, new Buffers(buffers), stored, ctx);
      owner.plugin().describe(page, new Buffers(buffers), plugins.decoders());
      long n = Math.min(Math.min(rows, d.numRows()), MAX_ROWS);
      if (n > 0) {
        d.read(new long[] {0, n});
        d.read(new long[] {n / 2, n / 2 + 1, n - 1, n});
      }
    } catch (LanceCodecException e) {
      if (e.kind() == LanceCodecException.Kind.INTERNAL) {
        throw new AssertionError("INTERNAL from a page decoder fed file bytes: " + e.getMessage(), e);
      }
    }
  }

  /** Buffers in memory, read as a file's page source reads them (bounds checked). */
  record Buffers(byte[][] buffers) implements PageSource {
    @Override
    public int numBuffers() {
      return buffers.length;
    }

    @Override
    public long bufferSize(int buffer) {
      check(buffer);
      return buffers[buffer].length;
    }

    @Override
    public byte[] read(int buffer, long offset, int length) {
      check(buffer);
      byte[] b = buffers[buffer];
      if (offset < 0 || length < 0 || offset > b.length - (long) length) {
        throw LanceCodecException.corrupt("read [" + offset + ", +" + length + ") outside buffer " + buffer + " of " + b.length + " bytes");
      }
      return java.util.Arrays.copyOfRange(b, (int) offset, (int) offset + length);
    }

    private void check(int buffer) {
      if (buffer < 0 || buffer >= buffers.length) {
        throw LanceCodecException.corrupt("buffer " + buffer + " of a page with " + buffers.length);
      }
    }
  }

  static int u16(byte[] b, int at) {
    return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
  }

  /** The pages of the given files, each in this target's input form, into {@code dir}. */
  public static List<Path> writeSeeds(List<Path> files, Path dir) throws Exception {
    List<Path> out = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (Path f : files) {
      try (LanceFileReader r = LanceFileReader.open(f, REGISTRY)) {
        int v = java.util.Arrays.asList(VERSIONS).indexOf(r.version());
        int c = 0;
        for (LanceFileReader.Column col : r.columns()) {
          int p = 0;
          for (LanceFileReader.PageRef ref : col.refs()) {
            int kind = KINDS.indexOf(ref.encoding().getClass());
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            b.write(v | kind << 2);
            byte[] m = ref.encoding().toByteArray();
            u16(b, m.length);
            b.write(m);
            long rows = ref.storedRows();
            for (int k = 0; k < 4; k++) {
              b.write((int) (rows >>> (8 * k)) & 0xFF);
            }
            int count = Math.min(7, ref.source().numBuffers());
            b.write(count);
            List<byte[]> bufs = new ArrayList<>();
            for (int i = 0; i < count; i++) {
              bufs.add(ref.source().readAll(i));
              u16(b, Math.min(0xFFFF, bufs.get(i).length));
            }
            for (byte[] x : bufs) {
              b.write(x, 0, Math.min(0xFFFF, x.length));
            }
            byte[] bytes = b.toByteArray();
            if (seen.add(io.lancecodec.fuzz.Fuzz.digest(bytes))) {
              Path out1 = dir.resolve(f.getFileName().toString().replace(".lance", "") + "-c" + c + "-p" + p);
              Files.write(out1, bytes);
              out.add(out1);
            }
            p++;
          }
          c++;
        }
      }
    }
    return out;
  }

  private static void u16(ByteArrayOutputStream b, int v) {
    b.write(v & 0xFF);
    b.write((v >>> 8) & 0xFF);
  }
}
