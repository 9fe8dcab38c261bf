package io.lancecodec.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.Scanner;
import io.lancecodec.spi.LanceCodecException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Whole files from their first byte: footer, column metadata, global buffers, schema, and every
 * page of every layout and codec the seed corpus (real files of 2.1, 2.2 and 2.3, see
 * {@link SeedFiles}) leads the fuzzer to. Each input is opened, inspected, read (its first rows at
 * once, then in batches), and taken from at three rows. The property: that succeeds, or one
 * {@link LanceCodecException} with a one-line message is thrown; anything else escaping (an index
 * error, an OutOfMemoryError) is a finding, and so is Arrow memory left allocated. The rows read
 * are bounded, since a valid tiny file may describe billions of constant rows; reads are given a
 * 256 MiB allocator, and one that needs more (a dictionary value repeated, which is legitimate)
 * fails as INVALID_ARGUMENT.
 *
 * <p>{@code mvn verify} replays {@code src/test/resources/.../FileFuzzTestInputs/wholeFile};
 * {@code bench/fuzz.sh FileFuzzTest MINUTES} fuzzes.
 */
public class FileFuzzTest {
  /** Rows read at once and by the scan, at most. */
  static final int MAX_ROWS = 4096;

  private static final CodecRegistry REGISTRY = CodecRegistry.discover();
  private static final BufferAllocator ALLOCATOR = new RootAllocator(256L << 20);
  /** Reads refused over this, as a service reading others' files would set it. */
  private static final io.lancecodec.runtime.ReaderOptions OPTIONS =
      io.lancecodec.runtime.ReaderOptions.defaults().withMaxReadBytes(128L << 20);
  private static final ThreadLocal<Path> FILE = ThreadLocal.withInitial(FileFuzzTest::tempFile);

  @FuzzTest(maxDuration = "30s")
  void wholeFile(byte[] input) {
    fuzzerTestOneInput(input);
  }

  public static void fuzzerTestOneInput(byte[] bytes) {
    Path f = FILE.get();
    try {
      Files.write(f, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      read(f);
    } catch (LanceCodecException e) {
      String m = e.getMessage();
      if (m == null || m.isBlank() || m.contains("\n")) {
        throw new AssertionError("not a one-line message: " + m, e);
      }
    }
    if (ALLOCATOR.getAllocatedMemory() != 0) {
      throw new AssertionError(ALLOCATOR.getAllocatedMemory() + " bytes of Arrow memory leaked");
    }
  }

  private static void read(Path f) {
    try (LanceFileReader r = LanceFileReader.open(f, REGISTRY, OPTIONS)) {
      r.columnSummaries();
      r.searchCacheBytes();
      long n = r.numRows();
      long end = Math.min(n, MAX_ROWS);
      try (VectorSchemaRoot all = r.readRange(0, end, null, ALLOCATOR)) {
        all.getRowCount();
      }
      try (Scanner s = r.scan(null, 1000, ALLOCATOR)) {
        for (int read = 0; read < MAX_ROWS && s.hasNext(); ) {
          try (VectorSchemaRoot b = s.next()) {
            read += Math.max(1, b.getRowCount());
          }
        }
      }
      if (n > 0) {
        try (VectorSchemaRoot t = r.take(new long[] {n - 1, 0, n / 2}, null, ALLOCATOR)) {
          t.getRowCount();
        }
      }
    }
  }

  private static Path tempFile() {
    try {
      // memory-backed where there is one: a disk stall must not pass for a slow decoder
      Path shm = Path.of("/dev/shm");
      Path p = Files.isDirectory(shm) && Files.isWritable(shm)
          ? Files.createTempFile(shm, "lance-codec-fuzz-", ".lance")
          : Files.createTempFile("fuzz-", ".lance");
      p.toFile().deleteOnExit();
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
