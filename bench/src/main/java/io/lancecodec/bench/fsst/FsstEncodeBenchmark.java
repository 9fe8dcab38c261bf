package io.lancecodec.bench.fsst;

import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * FSST compression speed of one page, as the writer pays it: the proposal (sampling and learning
 * the symbol table, then estimating on the sample) followed by compressing every value with
 * that table ({@code perValue}, the full-zip path). Pages are the first {@code rows} values of a
 * mail string file; small pages show the fixed cost of learning the table, large ones the
 * per-byte cost. {@code copyBaseline} copies the same bytes, the yardstick of the same run.
 * Scores are pages per second; multiply by the page's bytes (printed at setup) for bytes/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
public class FsstEncodeBenchmark {
  @Param({"subjects", "received"})
  public String dataset;

  /** Values per page; 0 = the whole file. */
  @Param({"1000", "0"})
  public int rows;

  private CodecPlugin fsst;
  private FsstBenchmark.Ctx ctx;
  private DataBlock.VariableWidth page;

  @Setup(Level.Trial)
  public void setup() throws Exception {
    DataBlock.VariableWidth all =
        FsstBenchmark.load(FsstBenchmark.dataRoot().resolve("strings").resolve("strings-mail-" + dataset + ".txt"));
    int n = rows == 0 ? (int) all.numValues() : (int) Math.min(rows, all.numValues());
    byte[] offsets = Arrays.copyOf(all.offsets(), (n + 1) * 4);
    int bytes = LittleEndian.getInt(offsets, n * 4);
    page = new DataBlock.VariableWidth(offsets, 32, Arrays.copyOf(all.data(), bytes), n);
    CodecRegistry registry = CodecRegistry.discover();
    fsst = FsstBenchmark.plugin(registry, "fsst");
    ctx = new FsstBenchmark.Ctx(registry, page);
    Encoded<DataBlock> e = perValue();
    if (e.data() instanceof DataBlock.VariableWidth vw) {
      System.out.printf("%n%s, %d values: %d string bytes -> %d (ratio %.3f)%n", dataset, n, bytes, vw.data().length,
          (double) bytes / vw.data().length);
    } else {
      System.out.printf("%n%s, %d values: %d string bytes%n", dataset, n, bytes);
    }
  }

  @Benchmark
  public Encoded<DataBlock> perValue() {
    return fsst.proposePerValue(page, ctx).orElseThrow().compressor().compress(page);
  }

  @Benchmark
  public byte[] copyBaseline() {
    return Arrays.copyOf(page.data(), page.data().length);
  }
}
