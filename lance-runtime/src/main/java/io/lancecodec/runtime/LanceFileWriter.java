package io.lancecodec.runtime;

import com.google.protobuf.Any;
import com.google.protobuf.Empty;
import com.google.protobuf.Message;
import io.lancecodec.format.pb.file.FileDescriptor;
import io.lancecodec.format.pb.file2.ColumnMetadata;
import io.lancecodec.format.pb.file2.DirectEncoding;
import io.lancecodec.format.pb.file2.Encoding;
import io.lancecodec.format.pb.v20.ColumnEncoding;
import io.lancecodec.format.pb.v21.PageLayout;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.EncodedPage;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LayoutPlugin;
import io.lancecodec.spi.LevelLayer;
import io.lancecodec.spi.PageInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes Arrow batches to a Lance file. Data goes to a temporary file beside the target, which
 * is renamed over the target only when {@link #close()} completes, so a crash never leaves a
 * half-written file under the final name. Not thread-safe: one writer per thread.
 */
public final class LanceFileWriter implements AutoCloseable {
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
    LanceSchemas.toLance(schema);
    if (!options.version().atLeast(FileVersion.V2_2) && schema.getFields().stream().anyMatch(LanceFileWriter::hasMap)) {
      // the reference neither writes nor reads maps in 2.1 files
      throw LanceCodecException.unsupported("maps need file version 2.2 or later (writing " + options.version() + ")");
    }
    this.layout = layoutFor(options);
    this.context = new RuntimeLayoutContext(options.registry(), options.version());
    this.leaves = Leaf.of(schema);
    for (Leaf leaf : leaves) {
      for (int j = 0; leaf.physical().kind() == Physical.Kind.PACKED && j < leaf.path().size() - 1; j++) {
        if (Leaf.kind(leaf.path().get(j)) == Leaf.Kind.STRUCT) {
          // lance 7.0.0 writes these but cannot read them back (it asks for a column past the
          // file's last), so we refuse rather than write a file the reference cannot read
          throw LanceCodecException.unsupported("packed struct '" + columnName(leaf) + "' inside struct '"
              + leaf.path().get(j).getName() + "' is not readable by the reference implementation; pack the outer struct or move it to the top level");
        }
      }
      if (BlobColumn.isBlob(leaf.leafField())) {
        BlobColumn.check(leaf);
      }
      columns.add(leaf.nested() ? null : new ColumnAccumulator(leaf.physical()));
      nested.add(leaf.nested() ? new NestedColumn(leaf) : null);
      FieldOptions fo = options.optionsFor(leaf.leafField().getMetadata());
      fieldOptions.add(fo);
      String missing = missingScheme(fo, options.registry());
      if (missing != null) {
        // the file stays correct (values are stored uncompressed), but the user asked for more
        LOG.log(System.Logger.Level.WARNING,
            "field ''{0}'' asks for compression {1}, but {2} is not on the class path; writing it without",
            leaf.leafField().getName(), fo.compression().orElse(""), missing);
      }
      metadata.add(
          ColumnMetadata.newBuilder()
              .setEncoding(direct(Container.COLUMN_ENCODING_URL,
                  ColumnEncoding.newBuilder().setValues(Empty.getDefaultInstance()).build())));
    }
    this.columnRows = new long[columns.size()];
    Path dir = this.target.getParent();
    this.temp = Files.createTempFile(dir, "." + this.target.getFileName() + ".", ".partial");
    this.out = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
  }

  private static final System.Logger LOG = System.getLogger(LanceFileWriter.class.getName());

  /** The artifact providing a requested compression scheme when no plugin for it is loaded, else null. */
  static String missingScheme(FieldOptions options, CodecRegistry registry) {
    String scheme = options.compression().orElse(null);
    if (scheme == null) {
      return null;
    }
    String plugin = scheme.equals("fsst") ? "fsst" : "general";
    boolean present = registry.codecs().stream().anyMatch(p -> p.name().equals(plugin));
    return present ? null : "io.lancecodec:codec-" + plugin;
  }

  /** Opens a writer for {@code schema}; the file appears at {@code path} on close. */
  public static LanceFileWriter open(Path path, Schema schema, WriterOptions options) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(options, "options");
    try {
      return new LanceFileWriter(path, schema, options);
    } catch (IOException e) {
      throw new LanceCodecException(LanceCodecException.Kind.IO, "cannot create " + path + ": " + e.getMessage(), e);
    }
  }

  private static LayoutPlugin layoutFor(WriterOptions options) {
    for (LayoutPlugin p : options.registry().layouts()) {
      if (p.fileVersions().contains(options.version())) {
        return p;
      }
    }
    throw new LanceCodecException(
        LanceCodecException.Kind.MISSING_PLUGIN,
        "writing version " + options.version() + " needs a layout plugin (io.lancecodec:"
            + (options.version() == FileVersion.V2_3 ? "layout-planar" : "layout-legacy")
            + "), not on the class path");
  }

  /** Appends a batch whose schema equals the writer's. */
  public void write(VectorSchemaRoot batch) {
    checkOpen();
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
      if (BlobColumn.isBlob(leaves.get(c).leafField())) {
        writeBlobPage(c, (DataBlock.VariableWidth) input.values(), input.defLevels(), input.layers(), n);
        return;
      }
    } else {
      ColumnAccumulator acc = columns.get(c);
      n = acc.numValues();
      if (n == 0) {
        return;
      }
      ColumnAccumulator.Page page = acc.drain();
      if (BlobColumn.isBlob(leaves.get(c).leafField())) {
        writeBlobPage(c, (DataBlock.VariableWidth) page.values(), page.defLevels(),
            List.of(page.defLevels() != null ? LevelLayer.NULLABLE_ITEM : LevelLayer.ALL_VALID_ITEM), n);
        return;
      }
      // Like the reference, a page without nulls carries no levels even when the field is nullable.
      List<LevelLayer> layers =
          List.of(page.defLevels() != null ? LevelLayer.NULLABLE_ITEM : LevelLayer.ALL_VALID_ITEM);
      input = new PageInput(page.values(), null, page.defLevels(), layers, n, fieldOptions.get(c));
    }
    EncodedPage encoded;
    try {
      encoded = layout.encode(input, context);
    } catch (LanceCodecException e) {
      throw e.within("column '" + columnName(leaves.get(c)) + "'");
    }
    writePage(c, encoded, n);
  }

  /** A blob page: its values go to the file first, then the page of their descriptions. */
  private void writeBlobPage(int c, DataBlock.VariableWidth values, short[] def, List<LevelLayer> layers, long n) throws IOException {
    EncodedPage blob;
    try {
      blob = BlobColumn.encode(values, def, layers, n, bytes -> {
        long at = position;
        writeAligned(bytes);
        return at;
      }, layout, context);
    } catch (LanceCodecException e) {
      throw e.within("column '" + columnName(leaves.get(c)) + "'");
    }
    writePage(c, blob, n);
  }

  private void writePage(int c, EncodedPage encoded, long n) throws IOException {
    ColumnMetadata.Page.Builder pb = ColumnMetadata.Page.newBuilder();
    for (byte[] buf : encoded.buffers()) {
      pb.addBufferOffsets(position);
      pb.addBufferSizes(buf.length);
      writeAligned(buf);
    }
    pb.setLength(n).setPriority(columnRows[c]).setEncoding(direct(Container.PAGE_LAYOUT_URL, encoded.layout()));
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

  /** A leaf column's dotted path, e.g. {@code a.item.b}. */
  static String columnName(Leaf leaf) {
    StringBuilder b = new StringBuilder();
    for (Field f : leaf.path()) {
      b.append(b.length() == 0 ? "" : ".").append(f.getName());
    }
    return b.toString();
  }

  private static Encoding direct(String url, Message m) {
    if (url.equals(Container.PAGE_LAYOUT_URL) && !(m instanceof PageLayout)) {
      throw new LanceCodecException(LanceCodecException.Kind.INTERNAL, "layout plugin returned " + m.getClass());
    }
    Any any = Any.newBuilder().setTypeUrl(url).setValue(m.toByteString()).build();
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
    while (b.hasRemaining()) {
      position += out.write(b);
    }
  }

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
      out.force(true);
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
    return new LanceCodecException(LanceCodecException.Kind.IO, "writing " + target + ": " + e.getMessage(), e);
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("writer is closed");
    }
  }
}
