package io.lancecodec.cli;

import io.lancecodec.spi.LanceCodecException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code bench}: the end-to-end comparison and the codec leaderboard. They need the reference
 * implementation and Parquet, which stay out of the CLI jar: this command checks its arguments
 * and runs {@code bench/compare.sh} of the source tree the jar was built in (or
 * {@code -Dlance.codec.root}), which builds the bench module when needed and runs
 * {@code io.lancecodec.bench.compare.Compare}. The child's stdout (the results) and stderr
 * (build output, progress, its one-line errors) are passed through; its exit status is ours.
 */
final class Bench {
  /** The options of {@code bench}: name to whether it takes a value. */
  static final Map<String, Boolean> OPTIONS = Map.of(
      "--quick", false,
      "--data", true,
      "--out", true,
      "--reps", true,
      "--only", true,
      "--codec", true,
      "--column", true,
      "--options", true);

  private final PrintStream out;
  private final PrintStream err;
  private final boolean debug;

  Bench(PrintStream out, PrintStream err, boolean debug) {
    this.out = out;
    this.err = err;
    this.debug = debug;
  }

  int run(Main.Args args) throws IOException {
    boolean leaderboard = args.flag("--codec");
    if (!leaderboard) {
      for (String o : List.of("--column", "--options")) {
        if (args.flag(o)) {
          throw new UsageException("bench: " + o + " needs --codec NAME (the codec leaderboard)");
        }
      }
    } else {
      if (args.option("--codec").isBlank()) {
        throw new UsageException("bench: --codec needs a plugin name (see `lance-codec codecs`)");
      }
      for (String o : List.of("--reps", "--only")) {
        if (args.flag(o)) {
          throw new UsageException("bench: " + o + " does not apply to --codec");
        }
      }
      if (args.flag("--column") && !args.flag("--data")) {
        throw new UsageException("bench: --column needs --data FILE");
      }
    }
    if (args.flag("--reps")) {
      String r = args.option("--reps");
      if (!r.matches("[1-9][0-9]{0,3}")) {
        throw new UsageException("bench: --reps must be a positive integer, got '" + r + "'");
      }
    }
    if (args.flag("--only")) {
      try {
        java.util.regex.Pattern.compile(args.option("--only"));
      } catch (java.util.regex.PatternSyntaxException e) {
        throw new UsageException("bench: --only needs a regular expression over data set names, got '" + args.option("--only") + "'");
      }
    }
    if (args.flag("--data")) {
      Path data = Path.of(args.option("--data"));
      if (leaderboard ? !Files.isRegularFile(data) : !Files.isDirectory(data)) {
        throw LanceCodecException.invalidArgument(leaderboard
            ? "no such file: " + data
            : "--data " + data + ": no such directory (the corpus directory, e.g. ../shared/data)");
      }
    }
    Path script = root().resolve("bench").resolve("compare.sh");
    if (!Files.isRegularFile(script)) {
      throw LanceCodecException.unsupported("bench needs the lance-codec source tree: " + script + " not found"
          + " (run bin/lance-codec from a clone, or set -Dlance.codec.root=DIR)");
    }
    List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
    for (Map.Entry<String, String> o : args.options.entrySet()) {
      cmd.add(o.getKey());
      if (OPTIONS.get(o.getKey())) {
        cmd.add(o.getKey().equals("--data") || o.getKey().equals("--out")
            ? Path.of(o.getValue()).toAbsolutePath().toString() : o.getValue());
      }
    }
    if (debug) {
      cmd.add("--debug");
    }
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    // the child writes into our pipe, so it cannot see whether stderr is a terminal: tell it
    pb.environment().put("LANCE_CODEC_STDERR_TTY", String.valueOf(Boolean.getBoolean("lance.codec.stderr.tty")));
    Process p = pb.start();
    Thread errPump = pump(p.getErrorStream(), err);
    Thread outPump = pump(p.getInputStream(), out);
    try {
      int status = p.waitFor();
      outPump.join();
      errPump.join();
      out.flush();
      err.flush();
      return status;
    } catch (InterruptedException e) {
      p.destroy();
      Thread.currentThread().interrupt();
      throw new LanceCodecException(LanceCodecException.Kind.IO, "bench: interrupted");
    }
  }

  private static Thread pump(InputStream in, PrintStream to) {
    Thread t = new Thread(() -> {
      byte[] buf = new byte[1 << 14];
      try (in) {
        int n;
        while ((n = in.read(buf)) >= 0) {
          synchronized (to) {
            to.write(buf, 0, n);
            to.flush();
          }
        }
      } catch (IOException e) {
        // the child went away; its exit status tells
      }
    }, "bench-pump");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** The source tree: -Dlance.codec.root, else three levels above the CLI jar (cli/target/x.jar). */
  static Path root() {
    String r = System.getProperty("lance.codec.root");
    if (r != null && !r.isBlank()) {
      return Path.of(r).toAbsolutePath();
    }
    CodeSource cs = Bench.class.getProtectionDomain().getCodeSource();
    try {
      Path here = cs == null ? null : Path.of(cs.getLocation().toURI());
      if (here != null && here.getParent() != null && here.getParent().getParent() != null
          && here.getParent().getParent().getParent() != null) {
        return here.getParent().getParent().getParent();
      }
    } catch (URISyntaxException | IllegalArgumentException e) {
      // fall through
    }
    return Path.of("").toAbsolutePath();
  }
}
