package io.lancecodec.runtime;

import com.google.protobuf.Any;
import com.google.protobuf.Empty;
import com.google.protobuf.Message;
import io.lancecodec.format.pb.file.FileDescriptor;
import io.lancecodec.format.pb.file2.ColumnMetadata;
import io.lancecodec.format.pb.file2.DirectEncoding;
import io.lancecodec.format.pb.file2.Encoding;
import io.lancecodec.format.pb.v20.ColumnEncoding;
import io.lancecodec.runtime.arrow.LanceSchemas;
import io.lancecodec.runtime.arrow.Leaf;
import io.lancecodec.runtime.arrow.Physical;
import io.lancecodec.runtime.file.Container;
import io.lancecodec.runtime.plugin.OptionsParser;
import io.lancecodec.runtime.plugin.Plugins;
import io.lancecodec.runtime.plugin.RuntimeLayoutContext;
import io.lancecodec.runtime.shred.BlobColumn;
import io.lancecodec.runtime.shred.ColumnAccumulator;
import io.lancecodec.runtime.shred.NestedColumn;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.EncodedPage;
import io.lancecodec.spi.layout.LayoutPlugin;
import io.lancecodec.spi.layout.LevelLayer;
import io.lancecodec.spi.layout.PageInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes Arrow batches to a Lance file. Data goes to a temporary file beside the target
 * ({@code .<name>.<digits>.partial}, locked while the writer lives), which is renamed over the
 * target only when {@link #close()} completes, so a crash never leaves a half-written file under
 * the final name; a failed write deletes its temporary file, and one left by a killed process is
 * deleted by the next writer opened in the directory once unlocked and untouched for two seconds.
 * Not thread-safe: one writer per thread.
 */
public final class LanceFileWriter implements AutoCloseable {
  /**
   * Wraps the channel every writer writes through: the identity, except in tests that make writes
   * fail at chosen offsets (a full disk) to check what the writer leaves behind.
   */
  static volatile java.util.function.UnaryOperator<FileChannel> channelWrapper = java.util.function.UnaryOperator.identity();

  private final Path target;
  private final Path temp;
  private final FileChannel out;
  private final Schema schema;
  private final WriterOptions options;
  private final LayoutPlugin layout;
  private final RuntimeLayoutContext context;
  private final List<Leaf> leaves;
  private final List<ColumnAccumulator> columns = new ArrayList<>(); // null for nested leaves
  private final List<NestedColumn> nested = new ArrayList<>(); // null for flat leaves
  private final List<FieldOptions> fieldOptions = new ArrayList<>();
  private final List<ColumnMetadata.Builder> metadata = new ArrayList<>();
  private final long[] columnRows;
  private long position;
  private long rows;
  private boolean closed;

  private LanceFileWriter(Path target, Schema schema, WriterOptions options) throws IOException {
    this.target = target.toAbsolutePath();
    this.schema = schema;
    this.options = options;
    checkNames(schema.getFields(), "");
    LanceSchemas.toLance(schema);
    if (!options.version().atLeast(FileVersion.V2_2) && schema.getFields().stream().anyMatch(LanceFileWriter::hasMap)) {
      // the reference neither writes nor reads maps in 2.1 files
      throw LanceCodecException.unsupported("maps need file version 2.2 or later (writing " + options.version() + ")");
    }
    Plugins plugins = options.registry().internals();
    this.layout = plugins.writerLayout(options.version());
    OptionsParser parser = new OptionsParser(plugins, options.environment());
    this.context = new RuntimeLayoutContext(plugins, options.version(), this::writeExternal);
    this.leaves = Leaf.of(schema);
    for (Leaf leaf : leaves) {
      for (int j = 0; leaf.physical().kind() == Physical.Kind.PACKED && j < leaf.path().size() - 1; j++) {
        if (Leaf.kind(leaf.path().get(j)) == Leaf.Kind.STRUCT) {
          // lance 7.0.0 writes these but cannot read them back (it asks for a column past the
          // file's last), so we refuse rather than write a file the reference cannot read
          throw LanceCodecException.unsupported("packed struct '" + leaf.columnName() + "' inside struct '"
              + leaf.path().get(j).getName() + "' is not readable by the reference implementation; pack the outer struct or move it to the top level");
        }
      }
      if (BlobColumn.isBlob(leaf.leafField())) {
        BlobColumn.check(leaf);
      }
      columns.add(leaf.nested() ? null : new ColumnAccumulator(leaf.physical()));
      nested.add(leaf.nested() ? new NestedColumn(leaf) : null);
      FieldOptions fo = options.optionsFor(parser, leaf.leafField().getMetadata(), leaf.columnName());
      fo = fo.toBuilder().numberKind(io.lancecodec.runtime.arrow.LanceSchemas.numberKind(leaf.leafField())).build();
      checkSchemeVersion(plugins, fo, options.version(), leaf.columnName());
      fieldOptions.add(fo);
      metadata.add(
          ColumnMetadata.newBuilder()
              .setEncoding(direct(ColumnEncoding.newBuilder().setValues(Empty.getDefaultInstance()).build())));
    }
    this.columnRows = new long[columns.size()];
    PartialFiles.deleteStale(this.target.getParent());
    PartialFiles.Created created = PartialFiles.create(this.target);
    this.temp = created.path();
    this.out = channelWrapper.apply(created.channel());
    PartialFiles.lock(out);
  }

  /** Field names are unique among siblings: columns are found by name. */
  private static void checkNames(List<Field> fields, String parent) {
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (Field f : fields) {
      if (!seen.add(f.getName())) {
        throw LanceCodecException.invalidArgument("field name '" + parent + f.getName() + "' appears twice in the schema");
      }
      checkNames(f.getChildren(), parent + f.getName() + ".");
    }
  }

  /** Opens a writer for {@code schema}; the file appears at {@code path} on close. */
  public static LanceFileWriter open(Path path, Schema schema, WriterOptions options) {
    LanceFileReader.requireArgument(path, "path");
    LanceFileReader.requireArgument(schema, "schema");
    LanceFileReader.requireArgument(options, "options");
    try {
      return new LanceFileWriter(path, schema, options);
    } catch (IOException e) {
      throw LanceCodecException.io("cannot create " + path + ": " + e.getMessage(), e);
    }
  }

  /** Appends a batch whose schema equals the writer's. */
  public void write(VectorSchemaRoot batch) {
    checkOpen();
    LanceFileReader.requireArgument(batch, "batch");
    if (!sameFields(batch.getSchema().getFields(), schema.getFields(), false)) {
      throw LanceCodecException.invalidArgument(
          "batch schema " + batch.getSchema() + " differs from the writer's " + schema);
    }
    try {
      for (int c = 0; c < columns.size(); c++) {
        FieldVector v = batch.getVector(leaves.get(c).field());
        long buffered;
        if (nested.get(c) != null) {
          nested.get(c).append(v);
          buffered = nested.get(c).bufferedBytes();
        } else {
          columns.get(c).append(v);
          buffered = columns.get(c).bufferedBytes();
        }
        if (buffered > options.pageBytesPerColumn()) {
          flush(c);
        }
      }
      rows += batch.getRowCount();
    } catch (IOException e) {
      throw fail(e);
    } catch (RuntimeException e) {
      abort();
      throw e;
    }
  }

  private void flush(int c) throws IOException {
    PageInput input;
    long n;
    if (nested.get(c) != null) {
      n = nested.get(c).rows();
      if (n == 0) {
        return;
      }
      input = nested.get(c).drain(fieldOptions.get(c));
    } else {
      ColumnAccumulator acc = columns.get(c);
      n = acc.numValues();
      if (n == 0) {
        return;
      }
      ColumnAccumulator.Page page = acc.drain();
      // Like the reference, a page without nulls carries no levels even when the field is nullable.
      List<LevelLayer> layers =
          List.of(page.defLevels() != null ? LevelLayer.NULLABLE_ITEM : LevelLayer.ALL_VALID_ITEM);
      input = new PageInput(page.values(), null, page.defLevels(), layers, n, fieldOptions.get(c));
    }
    EncodedPage encoded;
    try {
      encoded = layout.encode(input, context);
    } catch (LanceCodecException e) {
      throw writerSide(e).within("column '" + leaves.get(c).columnName() + "'");
    } finally {
      context.endPage();
    }
    writePage(c, encoded, n);
    // the page's buffers are in the file and its blocks are no one's (PageInput says plugins keep
    // none); PageArrays takes back only what it lent, once
    for (byte[] b : encoded.buffers()) {
      io.lancecodec.spi.PageArrays.giveBack(b);
    }
    if (nested.get(c) != null) {
      nested.get(c).recycle();
    } else {
      columns.get(c).recycle();
    }
  }

  /**
   * A writer reads no file, so a block or page that fails a format check while being encoded is
   * a bug of lance-codec (or of a plugin): INTERNAL, never CORRUPT, which would blame a file.
   */
  /**
   * A scheme whose plugin does not write this file version (pcodec in a 2.2 file) would be
   * ignored page by page, the values stored uncompressed; refuse it where the writer opens.
   */
  private static void checkSchemeVersion(Plugins plugins, FieldOptions fo, FileVersion version, String column) {
    if (fo.compression().isEmpty()) {
      return;
    }
    String scheme = fo.compression().get();
    java.util.Set<FileVersion> versions = plugins.schemeVersions(scheme);
    if (!versions.isEmpty() && !versions.contains(version)) {
      throw LanceCodecException.invalidArgument("column '" + column + "': " + FieldOptions.PREFIX + "compression=" + scheme
          + " is not available in file version " + version + " (its plugin writes " + new java.util.TreeSet<>(versions)
          + "); write one of those versions or choose another scheme");
    }
  }

  private static LanceCodecException writerSide(LanceCodecException e) {
    if (e.kind() != LanceCodecException.Kind.CORRUPT) {
      return e;
    }
    LanceCodecException internal = new LanceCodecException(LanceCodecException.Kind.INTERNAL,
        "encoding failed a format check (a bug, please report it): " + e.getMessage(), e);
    internal.setStackTrace(e.getStackTrace());
    return internal;
  }

  /** Blob values, written outside their page: where they went. */
  private long writeExternal(byte[] bytes) {
    long at = position;
    try {
      writeAligned(bytes);
    } catch (IOException e) {
      throw LanceCodecException.io("writing " + target + ": " + e.getMessage(), e);
    }
    return at;
  }

  private void writePage(int c, EncodedPage encoded, long n) throws IOException {
    ColumnMetadata.Page.Builder pb = ColumnMetadata.Page.newBuilder();
    for (byte[] buf : encoded.buffers()) {
      pb.addBufferOffsets(position);
      pb.addBufferSizes(buf.length);
      writeAligned(buf);
    }
    if (!layout.pageEncodings().contains(encoded.layout().getClass())) {
      throw LanceCodecException.internal("layout " + layout.name() + " returned a " + encoded.layout().getClass().getName()
          + ", which is not one of its page encodings");
    }
    if (layout.rows(encoded.layout(), encoded.numRows()) != n) {
      throw LanceCodecException.internal("layout " + layout.name() + " stores " + encoded.numRows() + " rows for a page of " + n);
    }
    pb.setLength(encoded.numRows()).setPriority(columnRows[c]).setEncoding(direct(encoded.layout()));
    metadata.get(c).addPages(pb);
    columnRows[c] += n;
  }

  /**
   * Field lists that match in names, types and nullability; a list's child may be named
   * differently (Arrow Java names it "$data$" after slicing or transfers, others "item").
   */
  private static boolean sameFields(List<Field> a, List<Field> b, boolean listChildren) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      Field x = a.get(i);
      Field y = b.get(i);
      boolean list = x.getType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.List
          || x.getType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.LargeList
          || x.getType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.FixedSizeList
          || x.getType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.Map;
      if (!(listChildren || x.getName().equals(y.getName()))
          || !x.getType().equals(y.getType())
          || x.isNullable() != y.isNullable()
          || !sameFields(x.getChildren(), y.getChildren(), list)) {
        return false;
      }
    }
    return true;
  }

  private static boolean hasMap(Field f) {
    return f.getType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.Map
        || f.getChildren().stream().anyMatch(LanceFileWriter::hasMap);
  }

  /** {@code m} as an inline {@code Any}, typed by its full name as Lance writes it ({@code /lance.encodings21.PageLayout}). */
  private static Encoding direct(Message m) {
    Any any = Any.newBuilder().setTypeUrl(Plugins.typeUrl(m.getDescriptorForType())).setValue(m.toByteString()).build();
    return Encoding.newBuilder().setDirect(DirectEncoding.newBuilder().setEncoding(any.toByteString())).build();
  }

  private void writeAligned(byte[] buf) throws IOException {
    writeFully(ByteBuffer.wrap(buf));
    int pad = (int) ((Container.ALIGNMENT - position % Container.ALIGNMENT) % Container.ALIGNMENT);
    if (pad > 0) {
      byte[] p = new byte[pad];
      java.util.Arrays.fill(p, Container.PAD);
      writeFully(ByteBuffer.wrap(p));
    }
  }

  private void writeFully(ByteBuffer b) throws IOException {
    // A heap buffer is copied into a temporary direct one of its size before the system call;
    // slices keep that copy, and the kernel's copy out of it, in cache. Writing 10,000 vectors
    // (30 MB, one page buffer) took 19.6-20.0 ms of thread CPU in 1 MiB slices, 22.2-22.9 whole;
    // 256 KiB and 4 MiB slices were no better.
    int end = b.limit();
    while (b.position() < end) {
      b.limit(Math.min(end, b.position() + WRITE_SLICE));
      position += out.write(b);
    }
  }

  /** Bytes handed to one write call at most. */
  private static final int WRITE_SLICE = 1 << 20;

  /** Flushes the remaining pages, writes metadata and footer, and moves the file into place. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    try {
      for (int c = 0; c < columns.size(); c++) {
        flush(c);
      }
      byte[] descriptor =
          FileDescriptor.newBuilder().setSchema(LanceSchemas.toLance(schema)).setLength(rows).build().toByteArray();
      long gb0 = position;
      writeFully(ByteBuffer.wrap(descriptor));
      long[] cmPos = new long[metadata.size()];
      long[] cmSize = new long[metadata.size()];
      long cmStart = position;
      for (int c = 0; c < metadata.size(); c++) {
        byte[] m = metadata.get(c).build().toByteArray();
        cmPos[c] = position;
        cmSize[c] = m.length;
        writeFully(ByteBuffer.wrap(m));
      }
      ByteBuffer tail = ByteBuffer.allocate(16 * metadata.size() + 16 + Container.FOOTER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
      long cmo = position;
      for (int c = 0; c < metadata.size(); c++) {
        tail.putLong(cmPos[c]).putLong(cmSize[c]);
      }
      long gbo = cmo + 16L * metadata.size();
      tail.putLong(gb0).putLong(descriptor.length);
      tail.putLong(cmStart).putLong(cmo).putLong(gbo).putInt(1).putInt(metadata.size());
      tail.putShort((short) options.version().major()).putShort((short) options.version().minor());
      tail.put(Container.MAGIC);
      tail.flip();
      writeFully(tail);
      if (options.durability() == WriterOptions.Durability.SYNC) {
        out.force(true);
      }
      out.close();
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      closed = true;
    } catch (IOException e) {
      throw fail(e);
    } catch (RuntimeException e) {
      abort();
      throw e;
    }
  }

  /** Discards everything written; the target is left untouched. */
  public void abort() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.close();
    } catch (IOException ignored) {
      // the temp file is deleted below either way
    }
    try {
      Files.deleteIfExists(temp);
    } catch (IOException ignored) {
      // nothing more can be done; the name marks it as partial
    }
  }

  private LanceCodecException fail(IOException e) {
    abort();
    String why = e instanceof java.nio.channels.ClosedByInterruptException ? "the writing thread was interrupted"
        : e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    return LanceCodecException.io("writing " + target + " failed, nothing was written: " + why, e);
  }

  private void checkOpen() {
    if (closed) {
      throw LanceCodecException.invalidArgument("writer is closed");
    }
  }
}
