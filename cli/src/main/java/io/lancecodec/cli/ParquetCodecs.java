package io.lancecodec.cli;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import io.lancecodec.spi.LanceCodecException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * Page decompression for Parquet input. parquet-java's own factory goes through Hadoop's
 * {@code Configuration}, which needs Hadoop's XML and logging stack at run time; the CLI already
 * carries zstd-jni, lz4-java and snappy-java (for codec-general), and gzip is in the JDK.
 *
 * <p>A page header's uncompressed size comes from the file, so it is checked against the most
 * the codec can expand the page's bytes before anything is allocated, and the output must come
 * out at exactly that size.
 */
final class ParquetCodecs implements CompressionCodecFactory {
  /** Only lz4-java's pure-Java safe decoder, as in codec-general (the others can overread). */
  private static final LZ4SafeDecompressor LZ4 = LZ4Factory.safeInstance().safeDecompressor();

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    throw LanceCodecException.internal("Parquet input is read only");
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    // Largest expansion per compressed byte: snappy's 3-byte copy emits 64 bytes, an LZ4 length
    // byte adds 255, deflate peaks near 1032:1, and a zstd RLE block turns 4 bytes into 128 KiB.
    long ratio = switch (codec) {
      case UNCOMPRESSED -> 1;
      case SNAPPY -> 32;
      case LZ4_RAW -> 255;
      case GZIP -> 1032;
      case ZSTD -> 32_768;
      default -> throw LanceCodecException.unsupported("pages compressed with " + codec
          + " are not supported (supported: uncompressed, snappy, gzip, zstd, lz4_raw)");
    };
    return new BytesInputDecompressor() {
      @Override
      public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
        byte[] src = bytes.toByteArray();
        return BytesInput.from(inflate(codec, ratio, src, uncompressedSize));
      }

      @Override
      public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
          throws IOException {
        byte[] src = new byte[compressedSize];
        input.get(src);
        output.put(inflate(codec, ratio, src, uncompressedSize));
      }

      @Override
      public void release() {}
    };
  }

  private byte[] inflate(CompressionCodecName codec, long ratio, byte[] src, int size) throws IOException {
    if (size < 0 || size > src.length * ratio + 64) {
      throw LanceCodecException.corrupt("a " + codec + " page of " + src.length
          + " bytes declares " + size + " bytes uncompressed, more than the codec can produce");
    }
    if (codec == CompressionCodecName.UNCOMPRESSED) {
      if (src.length != size) {
        throw LanceCodecException.corrupt("an uncompressed page of " + src.length + " bytes declares " + size);
      }
      return src;
    }
    byte[] out = new byte[size];
    long n;
    try {
      n = switch (codec) {
        case SNAPPY -> {
          if (!Snappy.isValidCompressedBuffer(src) || Snappy.uncompressedLength(src) != size) {
            throw LanceCodecException.corrupt("malformed snappy page of " + src.length + " bytes");
          }
          yield Snappy.uncompress(src, 0, src.length, out, 0);
        }
        case LZ4_RAW -> LZ4.decompress(src, 0, src.length, out, 0, size);
        case ZSTD -> {
          long r = Zstd.decompressByteArray(out, 0, size, src, 0, src.length);
          if (Zstd.isError(r)) {
            throw LanceCodecException.corrupt("malformed zstd page of " + src.length + " bytes ("
                + Zstd.getErrorName(r) + ")");
          }
          yield r;
        }
        case GZIP -> {
          try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(src))) {
            int got = in.readNBytes(out, 0, size);
            yield got == size && in.read() < 0 ? got : -1;
          }
        }
        default -> throw LanceCodecException.internal("codec " + codec);
      };
    } catch (LZ4Exception | ZstdException | ArrayIndexOutOfBoundsException | IOException e) {
      throw new LanceCodecException(LanceCodecException.Kind.CORRUPT,
          "malformed " + codec + " page of " + src.length + " bytes (" + e.getMessage() + ")", e);
    }
    if (n != size) {
      throw LanceCodecException.corrupt("a " + codec + " page decoded to " + n
          + " bytes, its header declares " + size);
    }
    return out;
  }

  @Override
  public void release() {}
}
