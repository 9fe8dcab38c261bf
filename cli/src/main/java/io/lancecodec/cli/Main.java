package io.lancecodec.cli;

import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The {@code lance-codec} command line (see CLI-CONTRACT.md). {@link #run} does all the work
 * and returns the exit status, so tests call it directly; only {@link #main} exits the JVM.
 * stdout carries results only; every error is one line {@code lance-codec: <message>} on
 * stderr (plus a stack trace with {@code --debug}); status 2 for usage errors, 1 otherwise.
 */
public final class Main {
  static {
    // Arrow logs through SLF4J; with no provider SLF4J would print a warning on every run.
    if (System.getProperty("slf4j.internal.verbosity") == null) {
      System.setProperty("slf4j.internal.verbosity", "ERROR");
    }
  }

  /** Rows per batch when streaming a file out. */
  static final int BATCH = 8192;

  static final String USAGE = String.join("\n",
      "usage: lance-codec [--debug] <command> [args]",
      "",
      "commands:",
      "  cat FILE [--columns a,b] [--rows SPEC]   decode rows of a Lance file to JSON Lines",
      "                                           SPEC: indices and half-open ranges, e.g. 0:10,57,1000:1003",
      "  write IN OUT [--version 2.1|2.2|2.3] [--csv-types COL:TYPE,...] [--csv-infer-rows N|all]",
      "                                           encode IN as Lance file OUT (default version 2.1). IN is an Arrow IPC",
      "                                           file or stream (field metadata lance-encoding:* is honoured), a Parquet",
      "                                           file (.parquet, or by its PAR1 magic), or a CSV file with a header (.csv)",
      "                                           CSV: column types are inferred from the first N rows (default 10000;",
      "                                           'all' reads the file twice, streaming) as bool, int64, float64, date,",
      "                                           timestamp, timestamptz or utf8; empty fields are null; a later value",
      "                                           that does not fit its column's type stops the write, naming row, column",
      "                                           and value. --csv-types sets some or all types, e.g. zip:utf8,day:date",
      "  inspect FILE [--json]                    file version, schema, and every page's layout, compression and bytes",
      "  codecs [--json]                          the codec and layout plugins found on the class path",
      "  demo                                     write real data sets as Lance 2.1 and 2.2 and report sizes and speed",
      "  bench [--quick] [--data DIR] [--out DIR] [--reps N] [--only REGEX]   compare with the reference Lance,",
      "                                           DuckDB, Parquet, Arrow IPC and memcpy on real data, in one process",
      "                                           (needs the source tree; a Markdown table on stdout, CSV and charts in",
      "                                           --out DIR); --only keeps the data sets whose names match REGEX",
      "                                           bench --codec NAME [--data FILE --column C] [--options K=V,...[;...]]",
      "                                           [--out DIR]: score a codec plugin on a column beside every installed",
      "                                           codec (third-party jars: LANCE_CODEC_PLUGINS=a.jar:b.jar)",
      "",
      "options:",
      "  --debug      print stack traces of errors",
      "  --help, -h   this help",
      "");

  private final PrintStream out;
  private final PrintStream err;
  private final GuardedStream stdout;
  /** stderr is a terminal: only then does {@code write} draw a progress line. */
  private final boolean interactive;
  private boolean debug;

  private Main(PrintStream out, PrintStream err, GuardedStream stdout, boolean interactive) {
    this.out = out;
    this.err = err;
    this.stdout = stdout;
    this.interactive = interactive;
  }

  public static void main(String[] args) {
    GuardedStream guarded = new GuardedStream(new FileOutputStream(FileDescriptor.out));
    PrintStream out = new PrintStream(new BufferedOutputStream(guarded, 1 << 16), false, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    int status = new Main(out, err, guarded, stderrIsTerminal()).execute(args);
    out.flush();
    err.flush();
    System.exit(status);
  }

  /**
   * Java cannot ask whether stderr alone is a terminal, so bin/lance-codec, which can
   * ({@code [ -t 2 ]}), says so in a property. Without it, a console (stdin and stdout both
   * terminals in JDK 17) is the nearest test.
   */
  static boolean stderrIsTerminal() {
    String told = System.getProperty("lance.codec.stderr.tty");
    return told != null ? told.equals("true") : System.console() != null;
  }

  /** Runs one command line; returns the exit status. Never exits the JVM. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return new Main(out, err, null, false).execute(args);
  }

  private int execute(String[] args) {
    debug = Arrays.asList(args).contains("--debug");
    try {
      int status = dispatch(args);
      out.flush();
      checkStdout();
      return status;
    } catch (StdoutClosed e) {
      return 0;
    } catch (UsageException e) {
      return fail(e, e.getMessage(), 2);
    } catch (LanceCodecException e) {
      return fail(e, e.getMessage(), 1);
    } catch (UncheckedIOException e) {
      return fail(e, ioMessage(e.getCause()), 1);
    } catch (IOException e) {
      return fail(e, ioMessage(e), 1);
    } catch (OutOfMemoryError e) {
      return fail(e, "out of memory (raise the heap with JAVA_OPTS=-Xmx...): " + e.getMessage(), 1);
    } catch (RuntimeException | Error e) {
      Throwable t = e;
      if (t.getCause() instanceof IOException io && (t.getMessage() == null || t.getMessage().equals(io.toString()))) {
        return fail(e, ioMessage(io), 1);
      }
      return fail(e, "internal error: " + t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage()), 1);
    }
  }

  private int fail(Throwable t, String message, int status) {
    out.flush();
    String line = message == null || message.isBlank() ? t.getClass().getSimpleName() : message;
    err.println("lance-codec: " + line.strip().replaceAll("\\s*\\R\\s*", " "));
    if (debug) {
      t.printStackTrace(err);
    }
    err.flush();
    return status;
  }

  static String ioMessage(IOException e) {
    if (e instanceof NoSuchFileException n) {
      return "no such file: " + n.getFile();
    }
    if (e instanceof AccessDeniedException a) {
      return "permission denied: " + a.getFile();
    }
    return "I/O error: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
  }

  // ---------------------------------------------------------------- argument parsing

  /** The parsed arguments of one command. */
  static final class Args {
    final String command;
    final List<String> positional = new ArrayList<>();
    final Map<String, String> options = new LinkedHashMap<>();

    Args(String command) {
      this.command = command;
    }

    String option(String name) {
      return options.get(name);
    }

    boolean flag(String name) {
      return options.containsKey(name);
    }
  }

  /** Options each command accepts: name to whether it takes a value. */
  private static final Map<String, Map<String, Boolean>> OPTIONS = Map.of(
      "cat", Map.of("--columns", true, "--rows", true),
      "write", Map.of("--version", true, "--csv-types", true, "--csv-infer-rows", true),
      "inspect", Map.of("--json", false),
      "codecs", Map.of("--json", false),
      "demo", Map.of(),
      "bench", Bench.OPTIONS,
      "help", Map.of());

  private static final Map<String, int[]> ARITY = Map.of(
      "cat", new int[] {1, 1},
      "write", new int[] {2, 2},
      "inspect", new int[] {1, 1},
      "codecs", new int[] {0, 0},
      "demo", new int[] {0, 0},
      "bench", new int[] {0, 0},
      "help", new int[] {0, 1});

  private static final Map<String, String> SYNOPSIS = Map.of(
      "cat", "cat FILE [--columns a,b] [--rows SPEC]",
      "write", "write IN OUT [--version 2.1|2.2|2.3] [--csv-types COL:TYPE,...] [--csv-infer-rows N|all]",
      "inspect", "inspect FILE [--json]",
      "codecs", "codecs [--json]",
      "demo", "demo",
      "bench", "bench [--quick] [--data DIR] [--out DIR] [--reps N] [--only REGEX]",
      "help", "help [COMMAND]");

  /** Parses the command line; returns null after printing help. */
  static Args parse(String[] argv) {
    String command = null;
    boolean help = false;
    boolean endOfOptions = false;
    List<String> rest = new ArrayList<>();
    for (String a : argv) {
      if (!endOfOptions && a.equals("--")) {
        endOfOptions = true;
        rest.add(a);
      } else if (!endOfOptions && a.equals("--debug")) {
        continue;
      } else if (!endOfOptions && (a.equals("--help") || a.equals("-h"))) {
        help = true;
      } else if (command == null && (endOfOptions || !a.startsWith("-"))) {
        command = a;
      } else {
        rest.add(a);
      }
    }
    if (command == null) {
      if (help) {
        return new Args("help");
      }
      if (!rest.isEmpty() && !rest.get(0).equals("--")) {
        throw new UsageException("unknown option '" + rest.get(0) + "' (try --help)");
      }
      throw new UsageException("no command given (commands: cat, write, inspect, codecs, demo, bench; try --help)");
    }
    Map<String, Boolean> allowed = OPTIONS.get(command);
    if (allowed == null) {
      throw new UsageException("unknown command '" + command + "' (commands: cat, write, inspect, codecs, demo, bench; try --help)");
    }
    Args args = new Args(help ? "help" : "help".equals(command) ? "help" : command);
    if (help) {
      args.positional.add(command);
      return args;
    }
    endOfOptions = false;
    for (int i = 0; i < rest.size(); i++) {
      String a = rest.get(i);
      if (!endOfOptions && a.equals("--")) {
        endOfOptions = true;
        continue;
      }
      if (endOfOptions || !a.startsWith("-") || a.equals("-")) {
        args.positional.add(a);
        continue;
      }
      String name = a;
      String value = null;
      int eq = a.indexOf('=');
      if (a.startsWith("--") && eq > 0) {
        name = a.substring(0, eq);
        value = a.substring(eq + 1);
      }
      Boolean takesValue = allowed.get(name);
      if (takesValue == null) {
        throw new UsageException("unknown option '" + name + "' for " + command + " (usage: lance-codec " + SYNOPSIS.get(command) + ")");
      }
      if (takesValue && value == null) {
        if (i + 1 >= rest.size()) {
          throw new UsageException("option " + name + " needs a value (usage: lance-codec " + SYNOPSIS.get(command) + ")");
        }
        value = rest.get(++i);
      } else if (!takesValue && value != null) {
        throw new UsageException("option " + name + " takes no value");
      }
      if (args.options.put(name, takesValue ? value : "") != null) {
        throw new UsageException("option " + name + " given twice");
      }
    }
    int[] arity = ARITY.get(command);
    if (args.positional.size() < arity[0]) {
      throw new UsageException(command + ": missing argument (usage: lance-codec " + SYNOPSIS.get(command) + ")");
    }
    if (args.positional.size() > arity[1]) {
      throw new UsageException(command + ": unexpected argument '" + args.positional.get(arity[1])
          + "' (usage: lance-codec " + SYNOPSIS.get(command) + ")");
    }
    return args;
  }

  private int dispatch(String[] argv) throws IOException {
    Args args = parse(argv);
    switch (args.command) {
      case "help" -> {
        if (args.positional.isEmpty() || !SYNOPSIS.containsKey(args.positional.get(0))) {
          if (!args.positional.isEmpty()) {
            throw new UsageException("unknown command '" + args.positional.get(0) + "' (try --help)");
          }
          out.print(USAGE);
        } else {
          String c = args.positional.get(0);
          out.println("usage: lance-codec " + SYNOPSIS.get(c));
          commandHelp(c).forEach(out::println);
        }
        return 0;
      }
      case "cat" -> cat(args);
      case "write" -> write(args);
      case "inspect" -> Inspect.run(existingFile(args.positional.get(0)), args.flag("--json"), out);
      case "codecs" -> codecs(args.flag("--json"));
      case "demo" -> new Demo(out, err).run();
      case "bench" -> {
        return new Bench(out, err, debug).run(args);
      }
      default -> throw new UsageException("unknown command '" + args.command + "'");
    }
    return 0;
  }

  /** The lines USAGE gives a command: the rest of its first line, then its indented continuation lines. */
  static List<String> commandHelp(String command) {
    List<String> lines = USAGE.lines().collect(Collectors.toList());
    List<String> help = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      if (!l.startsWith("  " + command + " ") && !l.equals("  " + command)) {
        continue;
      }
      String rest = l.length() > 2 + SYNOPSIS.get(command).length() && l.startsWith("  " + SYNOPSIS.get(command))
          ? l.substring(2 + SYNOPSIS.get(command).length()).strip() : "";
      if (!rest.isEmpty()) {
        help.add(rest);
      }
      for (int j = i + 1; j < lines.size() && lines.get(j).startsWith("    "); j++) {
        help.add(lines.get(j).strip());
      }
      break;
    }
    return help;
  }

  static Path existingFile(String name) {
    Path p = Path.of(name);
    if (!Files.exists(p)) {
      throw LanceCodecException.invalidArgument("no such file: " + name);
    }
    if (Files.isDirectory(p)) {
      throw LanceCodecException.invalidArgument(name + " is a directory, not a file");
    }
    if (!Files.isReadable(p)) {
      throw LanceCodecException.invalidArgument("permission denied: " + name);
    }
    return p;
  }

  // ---------------------------------------------------------------- cat

  /** The --columns value as a list of names (null = all), checked against the schema. */
  static List<String> columns(String value, Schema schema, String file) {
    if (value == null) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (String raw : value.split(",", -1)) {
      String n = raw.strip();
      if (n.isEmpty()) {
        throw new UsageException("bad --columns '" + value + "': empty column name");
      }
      names.add(n);
    }
    Set<String> known = schema.getFields().stream().map(Field::getName).collect(Collectors.toCollection(java.util.LinkedHashSet::new));
    for (String n : names) {
      if (!known.contains(n)) {
        throw LanceCodecException.invalidArgument(file + ": unknown column '" + n + "' (columns: " + String.join(", ", known) + ")");
      }
    }
    return names;
  }

  private void cat(Args args) {
    Path path = existingFile(args.positional.get(0));
    String rowsText = args.option("--rows");
    RowSpec spec = rowsText == null ? null : RowSpec.parse(rowsText);
    try (LanceFileReader reader = LanceFileReader.open(path);
        BufferAllocator allocator = new RootAllocator()) {
      String name = path.getFileName().toString();
      List<String> cols = columns(args.option("--columns"), reader.schema(), name);
      Iterator<VectorSchemaRoot> batches;
      io.lancecodec.runtime.Scanner scanner = null;
      if (spec == null) {
        scanner = reader.scan(cols, BATCH, allocator);
        batches = scanner;
      } else {
        long max = spec.maxRow();
        if (max >= reader.numRows()) {
          throw LanceCodecException.invalidArgument(name + ": row " + max + " is out of range (the file has "
              + reader.numRows() + " rows, 0.." + (reader.numRows() - 1) + ")");
        }
        Iterator<long[]> chunks = spec.chunks(BATCH);
        batches = new Iterator<>() {
          @Override
          public boolean hasNext() {
            return chunks.hasNext();
          }

          @Override
          public VectorSchemaRoot next() {
            return reader.take(chunks.next(), cols, allocator);
          }
        };
      }
      try {
        print(batches);
      } finally {
        if (scanner != null) {
          // batches decoded ahead must be released before the allocator closes (e.g. `| head`)
          scanner.close();
        }
      }
    }
  }

  private void print(Iterator<VectorSchemaRoot> batches) {
    StringBuilder sb = new StringBuilder(1 << 16);
    while (batches.hasNext()) {
      try (VectorSchemaRoot root = batches.next()) {
        Json.RowWriter w = new Json.RowWriter(root);
        int n = root.getRowCount();
        for (int i = 0; i < n; i++) {
          w.row(i, sb);
          sb.append('\n');
          if (sb.length() >= 1 << 16) {
            out.append(sb);
            sb.setLength(0);
          }
        }
      }
      out.append(sb);
      sb.setLength(0);
      checkStdout();
    }
  }

  /** Stops quietly when a reader of stdout went away (e.g. {@code | head}); fails otherwise. */
  private void checkStdout() {
    if (!out.checkError()) {
      return;
    }
    IOException e = stdout == null ? null : stdout.failure;
    if (e != null && e.getMessage() != null && e.getMessage().contains("Broken pipe")) {
      throw new StdoutClosed();
    }
    throw new LanceCodecException(LanceCodecException.Kind.IO,
        "cannot write to standard output" + (e == null || e.getMessage() == null ? "" : ": " + e.getMessage()));
  }

  /** Thrown to end a command whose stdout was closed by its reader. */
  private static final class StdoutClosed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StdoutClosed() {
      super(null, null, false, false);
    }
  }

  /** Remembers the first write failure, which PrintStream would otherwise swallow. */
  static final class GuardedStream extends FilterOutputStream {
    volatile IOException failure;

    GuardedStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      try {
        out.write(b, off, len);
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        }
        throw e;
      }
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }
  }

  // ---------------------------------------------------------------- write

  private void write(Args args) throws IOException {
    Path in = existingFile(args.positional.get(0));
    Path target = Path.of(args.positional.get(1));
    FileVersion version = FileVersion.V2_1;
    if (args.option("--version") != null) {
      try {
        version = FileVersion.parse(args.option("--version").strip());
      } catch (LanceCodecException e) {
        throw new UsageException("bad --version: " + e.getMessage());
      }
    }
    InputKind kind = InputKind.of(in);
    CsvSource.Options csv = CsvSource.Options.parse(args.option("--csv-types"), args.option("--csv-infer-rows"));
    if (kind != InputKind.CSV && !csv.isDefault()) {
      throw new UsageException("--csv-types and --csv-infer-rows apply to CSV input (a .csv file) only");
    }
    Path parent = target.toAbsolutePath().getParent();
    if (parent == null || !Files.isDirectory(parent)) {
      throw LanceCodecException.invalidArgument("cannot write " + target + ": directory " + parent + " does not exist");
    }
    if (Files.isDirectory(target)) {
      throw LanceCodecException.invalidArgument("cannot write " + target + ": it is a directory");
    }
    if (Files.exists(target) && Files.isSameFile(in, target)) {
      throw LanceCodecException.invalidArgument("input and output are the same file: " + target);
    }
    long rows = 0;
    Schema schema;
    Progress progress = new Progress(err, interactive, System::nanoTime);
    try (BufferAllocator allocator = new RootAllocator();
        RowSource source = switch (kind) {
          case PARQUET -> ParquetSource.open(in, allocator);
          case CSV -> CsvSource.open(in, csv, allocator);
          case ARROW -> RowSource.of(openArrow(in, allocator));
        }) {
      VectorSchemaRoot root = source.root();
      schema = root.getSchema();
      for (Field f : schema.getFields()) {
        if (f.getDictionary() != null) {
          throw LanceCodecException.unsupported(in.getFileName() + ": column '" + f.getName()
              + "' is dictionary-encoded in the Arrow file, which write does not support (decode it first)");
        }
      }
      LanceFileWriter writer = LanceFileWriter.open(target, schema, WriterOptions.defaults().withVersion(version));
      try {
        while (source.loadNextBatch()) {
          writer.write(root);
          rows += root.getRowCount();
          progress.update(rows, source.fractionRead());
        }
        writer.close();
      } catch (RuntimeException | IOException e) {
        writer.abort();
        throw e;
      }
    } finally {
      progress.finish();
    }
    err.println("wrote " + rows + " rows, " + schema.getFields().size() + " columns to " + target + " (Lance " + version + ", "
        + Files.size(target) + " bytes)");
  }

  /** What {@code write} reads, by name and, for Parquet, by magic. */
  enum InputKind {
    ARROW, PARQUET, CSV;

    static InputKind of(Path in) throws IOException {
      String name = in.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
      if (name.endsWith(".parquet") || ParquetSource.hasMagic(in)) {
        return PARQUET;
      }
      return name.endsWith(".csv") ? CSV : ARROW;
    }
  }

  /** An Arrow IPC file (magic ARROW1), or else an Arrow IPC stream. */
  static ArrowReader openArrow(Path in, BufferAllocator allocator) throws IOException {
    byte[] head = new byte[6];
    int n;
    try (InputStream s = Files.newInputStream(in)) {
      n = s.readNBytes(head, 0, 6);
    }
    String name = in.getFileName().toString();
    if (n == 0) {
      throw LanceCodecException.invalidArgument(name + ": empty file, not an Arrow IPC file");
    }
    ArrowReader reader;
    if (looksLikeLance(in)) {
      throw LanceCodecException.invalidArgument(name + " is a Lance file; write needs an Arrow IPC file (.arrow, .feather, .ipc)");
    }
    if (n == 6 && new String(head, StandardCharsets.US_ASCII).equals("ARROW1")) {
      SeekableByteChannel ch = Files.newByteChannel(in);
      reader = new ArrowFileReader(ch, allocator);
    } else {
      checkStreamHeader(in, name);
      reader = new ArrowStreamReader(Files.newInputStream(in), allocator);
    }
    try {
      reader.getVectorSchemaRoot();
      return reader;
    } catch (IOException | RuntimeException e) {
      try {
        reader.close();
      } catch (IOException | RuntimeException ignored) {
        // reporting the first failure
      }
      String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      throw new LanceCodecException(LanceCodecException.Kind.INVALID_ARGUMENT,
          name + ": not a readable Arrow IPC file or stream (" + why + ")", e);
    }
  }

  private static boolean looksLikeLance(Path in) throws IOException {
    long size = Files.size(in);
    if (size < 40) {
      return false;
    }
    try (SeekableByteChannel ch = Files.newByteChannel(in)) {
      java.nio.ByteBuffer tail = java.nio.ByteBuffer.allocate(4);
      ch.position(size - 4);
      while (tail.hasRemaining() && ch.read(tail) >= 0) {
        // read the magic
      }
      return new String(tail.array(), StandardCharsets.US_ASCII).equals("LANC");
    }
  }

  /**
   * Rejects files whose first message length cannot be an Arrow IPC stream's, before the
   * stream reader would try to allocate a buffer of that size.
   */
  private static void checkStreamHeader(Path in, String name) throws IOException {
    long size = Files.size(in);
    byte[] b = new byte[8];
    int n;
    try (InputStream s = Files.newInputStream(in)) {
      n = s.readNBytes(b, 0, 8);
    }
    java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    long length;
    long headerBytes;
    if (n >= 4 && bb.getInt(0) == -1) {
      length = n >= 8 ? bb.getInt(4) : -1;
      headerBytes = 8;
    } else {
      length = n >= 4 ? bb.getInt(0) : -1;
      headerBytes = 4;
    }
    if (length < 0 || headerBytes + length > size) {
      throw LanceCodecException.invalidArgument(name + ": not an Arrow IPC file or stream (no ARROW1 magic and no valid stream message header)");
    }
  }

  // ---------------------------------------------------------------- codecs

  private void codecs(boolean json) {
    CodecRegistry registry = CodecRegistry.discover();
    List<String[]> rows = new ArrayList<>();
    for (CodecRegistry.PluginInfo p : registry.plugins()) {
      rows.add(new String[] {p.kind(), p.name(), p.version(), Integer.toString(p.spiVersion()), versions(p.fileVersions()),
          p.location(), Integer.toString(p.encodings().size()),
          p.extensions().entrySet().stream().map(e -> e.getKey() + " v" + e.getValue()).collect(Collectors.joining(","))});
    }
    if (json) {
      List<CodecRegistry.PluginInfo> infos = registry.plugins();
      for (int i = 0; i < rows.size(); i++) {
        String[] r = rows.get(i);
        String extensions = infos.get(i).extensions().entrySet().stream()
            .map(e -> Json.quote(e.getKey()) + ":" + e.getValue()).collect(Collectors.joining(","));
        out.println("{\"kind\":" + Json.quote(r[0]) + ",\"name\":" + Json.quote(r[1]) + ",\"version\":" + Json.quote(r[2])
            + ",\"spi\":" + r[3] + ",\"file_versions\":[" + Arrays.stream(r[4].split(",")).filter(s -> !s.isEmpty())
                .map(Json::quote).collect(Collectors.joining(",")) + "],\"jar\":" + Json.quote(r[5])
            + ",\"encodings\":" + r[6] + ",\"extensions\":{" + extensions + "}}");
      }
      return;
    }
    String[] header = {"kind", "name", "version", "spi", "file versions", "jar", "encodings", "extensions"};
    rows.add(0, header);
    int[] width = new int[header.length];
    for (String[] r : rows) {
      for (int i = 0; i < r.length; i++) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    for (String[] r : rows) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < r.length; i++) {
        sb.append(i + 1 < r.length ? pad(r[i], width[i] + 2) : r[i]);
      }
      out.println(sb.toString().stripTrailing());
    }
  }

  private static String versions(Set<FileVersion> versions) {
    return new TreeSet<>(versions).stream().map(FileVersion::toString).collect(Collectors.joining(","));
  }

  static String pad(String s, int width) {
    return s.length() >= width ? s : s + " ".repeat(width - s.length());
  }
}
