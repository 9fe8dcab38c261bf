package io.lancecodec.cli;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4Factory;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.xerial.snappy.Snappy;

/**
 * Writes Parquet files for tests with parquet-java itself, rows given as plain Java values:
 * a row is an {@code Object[]} by top-level field; null leaves an optional field out; a
 * repeated field or a LIST is a {@code List} (null items are null elements); a struct is an
 * {@code Object[]}; a MAP is a {@code Map}; binaries are {@code String} (UTF-8) or
 * {@code byte[]}; INT32 columns take any {@code Number}.
 */
final class ParquetFiles {
  private ParquetFiles() {}

  static void write(Path file, MessageType schema, CompressionCodecName codec, int rowGroupBytes,
      Consumer<ParquetWriter<Object[]>> rows) throws IOException {
    try (ParquetWriter<Object[]> w = new Builder(new LocalOutputFile(file), schema)
        .withConf(new PlainParquetConfiguration())
        .withCodecFactory(new Compressors())
        .withCompressionCodec(codec)
        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
        .withRowGroupSize((long) rowGroupBytes)
        .withPageSize(4096)
        .build()) {
      rows.accept(w);
    }
  }

  static void write(Path file, MessageType schema, CompressionCodecName codec, List<Object[]> rows) throws IOException {
    write(file, schema, codec, 64 << 10, w -> {
      try {
        for (Object[] r : rows) {
          w.write(r);
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
  }

  static final class Builder extends ParquetWriter.Builder<Object[], Builder> {
    private final MessageType schema;

    Builder(OutputFile file, MessageType schema) {
      super(file);
      this.schema = schema;
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<Object[]> getWriteSupport(org.apache.hadoop.conf.Configuration conf) {
      return new Rows(schema);
    }

    @Override
    protected WriteSupport<Object[]> getWriteSupport(ParquetConfiguration conf) {
      return new Rows(schema);
    }
  }

  static final class Rows extends WriteSupport<Object[]> {
    private final MessageType schema;
    private RecordConsumer out;

    Rows(MessageType schema) {
      this.schema = schema;
    }

    @Override
    public WriteContext init(org.apache.hadoop.conf.Configuration configuration) {
      return new WriteContext(schema, new HashMap<>());
    }

    @Override
    public WriteContext init(ParquetConfiguration configuration) {
      return new WriteContext(schema, new HashMap<>());
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
      out = recordConsumer;
    }

    @Override
    public void write(Object[] row) {
      out.startMessage();
      fields(schema, row);
      out.endMessage();
    }

    private void fields(GroupType g, Object[] values) {
      for (int i = 0; i < g.getFieldCount(); i++) {
        Type t = g.getType(i);
        Object v = values[i];
        if (v == null || (t.isRepetition(Type.Repetition.REPEATED) && ((List<?>) v).isEmpty())) {
          continue;
        }
        out.startField(t.getName(), i);
        if (t.isRepetition(Type.Repetition.REPEATED)) {
          for (Object item : (List<?>) v) {
            value(t, item);
          }
        } else {
          value(t, v);
        }
        out.endField(t.getName(), i);
      }
    }

    private void value(Type t, Object v) {
      if (t.isPrimitive()) {
        switch (t.asPrimitiveType().getPrimitiveTypeName()) {
          case BOOLEAN -> out.addBoolean((Boolean) v);
          case INT32 -> out.addInteger(((Number) v).intValue());
          case INT64 -> out.addLong(((Number) v).longValue());
          case FLOAT -> out.addFloat((Float) v);
          case DOUBLE -> out.addDouble((Double) v);
          default -> out.addBinary(v instanceof String s
              ? Binary.fromString(s) : Binary.fromConstantByteArray((byte[]) v));
        }
        return;
      }
      GroupType g = t.asGroupType();
      out.startGroup();
      LogicalTypeAnnotation a = g.getLogicalTypeAnnotation();
      if (a instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
        Type repeated = g.getType(0);
        List<?> items = (List<?>) v;
        if (repeated.isPrimitive() || repeated.asGroupType().getFieldCount() != 1) {
          // the two-level form: the repeated field is the element
          if (!items.isEmpty()) {
            out.startField(repeated.getName(), 0);
            for (Object item : items) {
              value(repeated, item);
            }
            out.endField(repeated.getName(), 0);
          }
          out.endGroup();
          return;
        }
        // the standard three-level form: repeated group list { <element> }
        GroupType list = repeated.asGroupType();
        if (!items.isEmpty()) {
          out.startField(list.getName(), 0);
          for (Object item : items) {
            out.startGroup();
            fields(list, new Object[] {item});
            out.endGroup();
          }
          out.endField(list.getName(), 0);
        }
      } else if (a instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation) {
        GroupType kv = g.getType(0).asGroupType();
        Map<?, ?> map = (Map<?, ?>) v;
        if (!map.isEmpty()) {
          out.startField(kv.getName(), 0);
          for (Map.Entry<?, ?> e : map.entrySet()) {
            out.startGroup();
            fields(kv, new Object[] {e.getKey(), e.getValue()});
            out.endGroup();
          }
          out.endField(kv.getName(), 0);
        }
      } else {
        fields(g, (Object[]) v);
      }
      out.endGroup();
    }
  }

  /** Page compression for writing, through the same libraries the CLI decompresses with. */
  static final class Compressors implements CompressionCodecFactory {
    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
      return new BytesInputCompressor() {
        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
          byte[] b = bytes.toByteArray();
          return BytesInput.from(switch (codec) {
            case UNCOMPRESSED, BROTLI -> b;
            case SNAPPY -> Snappy.compress(b);
            case ZSTD -> Zstd.compress(b, 3);
            case LZ4_RAW -> LZ4Factory.safeInstance().fastCompressor().compress(b);
            case GZIP -> {
              ByteArrayOutputStream o = new ByteArrayOutputStream();
              try (GZIPOutputStream z = new GZIPOutputStream(o)) {
                z.write(b);
              }
              yield o.toByteArray();
            }
            default -> throw new IllegalArgumentException("test writer: " + codec);
          });
        }

        @Override
        public CompressionCodecName getCodecName() {
          return codec;
        }

        @Override
        public void release() {}
      };
    }

    /** For {@link ParquetColumns}, the tests' own reader: the libraries called directly, no checks. */
    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
      return new BytesInputDecompressor() {
        @Override
        public BytesInput decompress(BytesInput bytes, int size) throws IOException {
          byte[] b = bytes.toByteArray();
          return BytesInput.from(switch (codec) {
            case UNCOMPRESSED -> b;
            case SNAPPY -> Snappy.uncompress(b);
            case ZSTD -> Zstd.decompress(b, size);
            case LZ4_RAW -> LZ4Factory.safeInstance().safeDecompressor().decompress(b, size);
            case GZIP -> new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(b)).readAllBytes();
            default -> throw new IllegalArgumentException("test reader: " + codec);
          });
        }

        @Override
        public void decompress(java.nio.ByteBuffer in, int inSize, java.nio.ByteBuffer out, int outSize) throws IOException {
          byte[] src = new byte[inSize];
          in.get(src);
          out.put(decompress(BytesInput.from(src), outSize).toByteArray());
        }

        @Override
        public void release() {}
      };
    }

    @Override
    public void release() {}
  }
}
