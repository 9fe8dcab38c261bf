package io.lancecodec.bench.alp;

import io.lancecodec.codec.alp.AlpPlugin;
import io.lancecodec.codec.bitpack.BitpackPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the ALP plugin costs a 2.3 writer on pages that are not floats. The writer's 64-bit blocks
 * do not say doubles from longs, so the plugin is asked for every int64 page too and must decline
 * it cheaply (its integer-word gate, before any encoding). Per operation, one writer's page of
 * 1,048,576 values (8 MiB):
 *
 * <ul>
 *   <li>{@code alpPropose}: {@link AlpPlugin#proposeMiniBlock} with the default options
 *       ({@code alp=auto}), what the writer asks of it for the page;
 *   <li>{@code bitpackPropose}: {@link BitpackPlugin#proposeMiniBlock} and its result, the chunks
 *       the writer stores for an integer page: the page's real encoding cost, the baseline.
 * </ul>
 *
 * Data: int64 {@code ids} (0, 1, 2, ...), {@code timestamps} (epoch milliseconds, seeded gaps
 * of up to a second), {@code counter} (90% zeros, the rest below 100); and, to show the other
 * side, {@code decimals}: float64 prices with two decimals, which ALP encodes (there
 * {@code alpPropose} is the whole encoding and bit-packing declines).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class AlpProposalBenchmark {
  static final int N = 1 << 20;

  @Param({"ids", "timestamps", "counter", "decimals"})
  public String data;

  DataBlock.FixedWidth block;
  ProposalContext context;
  final AlpPlugin alp = new AlpPlugin();
  final BitpackPlugin bitpack = new BitpackPlugin();

  @Setup
  public void setup() {
    SplittableRandom rnd = new SplittableRandom(42);
    byte[] b = new byte[8 * N];
    long t = 1_700_000_000_000L;
    long cents = 1_000_000;
    long or = 0;
    long runs = 0;
    long previous = 0;
    for (int i = 0; i < N; i++) {
      long x = switch (data) {
        case "ids" -> i;
        case "timestamps" -> t += rnd.nextInt(1000);
        case "counter" -> rnd.nextInt(10) == 0 ? rnd.nextInt(100) : 0;
        case "decimals" -> Double.doubleToRawLongBits(BigDecimal.valueOf(cents += rnd.nextInt(41) - 20, 2).doubleValue());
        default -> throw new IllegalArgumentException(data);
      };
      LittleEndian.putLong(b, 8 * i, x);
      or |= x;
      runs += i == 0 || x != previous ? 1 : 0;
      previous = x;
    }
    block = new DataBlock.FixedWidth(b, 64, N);
    context = new Context(new Stats.FixedWidth(N, 64, 64 - Long.numberOfLeadingZeros(or), runs, b.length));
    Optional<Proposal<MiniBlockCompressed>> a = alp.proposeMiniBlock(block, context);
    Optional<Proposal<MiniBlockCompressed>> p = bitpack.proposeMiniBlock(block, context);
    System.out.printf("%n[setup] %s: alp %s, bitpack %s (raw %d bytes)%n", data,
        a.map(x -> x.estimatedBytes() + " bytes").orElse("declines"),
        p.map(x -> x.codec() + " " + x.estimatedBytes() + " bytes").orElse("declines"), b.length);
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public Object alpPropose() {
    return alp.proposeMiniBlock(block, context);
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public Object bitpackPropose() {
    return bitpack.proposeMiniBlock(block, context).map(Proposal::result);
  }

  /** The statistics a writer computes for the page, no other plugins. */
  private record Context(Stats stats) implements ProposalContext {
    @Override
    public FieldOptions options() {
      return FieldOptions.DEFAULT;
    }

    @Override
    public FileVersion version() {
      return FileVersion.V2_3;
    }

    @Override
    public Optional<Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock b) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock b) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock b) {
      return Optional.empty();
    }
  }
}
