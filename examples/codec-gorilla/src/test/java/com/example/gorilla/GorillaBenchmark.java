package com.example.gorilla;

import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.testkit.MiniBlockChunks;
import io.lancecodec.testkit.ValueFamily;
import io.lancecodec.testkit.ValueKind;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Encode and decode speed of a page of float64 values (values per second: divide the score by
 * the page's values), beside a plain copy of the same bytes as the yardstick in the same run.
 * Run with {@code ./run-benchmark.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 4, time = 1)
public class GorillaBenchmark {
  /** The kit's real airport coordinates, or its sorted series. */
  @Param({"CORPUS", "SORTED"})
  public String family;

  private DataBlock.FixedWidth page;
  private MiniBlockDecompressor decoder;
  /** The page's chunks as a layout hands them over (slices of its one buffer), and their values. */
  private MiniBlockBuffers[] chunks;
  private int[] counts;

  @Setup
  public void setUp() {
    page = (DataBlock.FixedWidth) ValueFamily.valueOf(family).block(ValueKind.F64, 1).orElseThrow();
    MiniBlockCompressed compressed = GorillaPlugin.compress(page, GorillaPlugin.CHUNK_VALUES);
    decoder = new GorillaPlugin().openMiniBlock(((CompressiveEncoding) compressed.encoding()).getExtension(), null);
    counts = MiniBlockChunks.counts(compressed);
    chunks = new MiniBlockBuffers[counts.length];
    byte[] buffer = compressed.buffers().get(0);
    int at = 0;
    for (int c = 0; c < counts.length; c++) {
      int size = compressed.chunks().get(c).bufferSizes()[0];
      chunks[c] = new MiniBlockBuffers(buffer, new int[] {at}, new int[] {size});
      at += size;
    }
  }

  @Benchmark
  public MiniBlockCompressed encode() {
    return GorillaPlugin.compress(page, GorillaPlugin.CHUNK_VALUES);
  }

  /** Every chunk decoded in place, as a scan does. */
  @Benchmark
  public void decode(Blackhole bh) {
    for (int c = 0; c < chunks.length; c++) {
      bh.consume(decoder.decompress(chunks[c], counts[c], null));
    }
  }

  @Benchmark
  public byte[] copy() {
    return page.data().clone();
  }
}
