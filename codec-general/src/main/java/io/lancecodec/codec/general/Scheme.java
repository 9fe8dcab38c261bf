package io.lancecodec.codec.general;

import io.lancecodec.format.pb.v21.BufferCompression;
import io.lancecodec.format.pb.v21.CompressionScheme;
import io.lancecodec.spi.LanceCodecException;
import java.util.Optional;
import java.util.OptionalInt;

/** The schemes codec-general speaks, their option names and their wire values. */
enum Scheme {
  LZ4("lz4", CompressionScheme.COMPRESSION_ALGORITHM_LZ4),
  ZSTD("zstd", CompressionScheme.COMPRESSION_ALGORITHM_ZSTD),
  /** lance-codec only: files using it are unreadable by the reference (it fails, never misreads). */
  SNAPPY("snappy", CompressionScheme.LANCE_CODEC_SNAPPY);

  private final String option;
  private final CompressionScheme wire;

  Scheme(String option, CompressionScheme wire) {
    this.option = option;
    this.wire = wire;
  }

  String option() {
    return option;
  }

  /** The scheme a {@code lance-encoding:compression} value names, empty for other values. */
  static Optional<Scheme> ofOption(String value) {
    for (Scheme s : values()) {
      if (s.option.equals(value)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  /** The wire description; the level is written only when one was chosen, as the reference does. */
  BufferCompression describe(OptionalInt level) {
    BufferCompression.Builder b = BufferCompression.newBuilder().setScheme(wire);
    level.ifPresent(b::setLevel);
    return b.build();
  }

  BufferCodec codec(OptionalInt level) {
    switch (this) {
      case LZ4:
        return new Lz4Codec();
      case ZSTD:
        return new ZstdCodec(level.orElse(0));
      default:
        return new SnappyCodec();
    }
  }

  /** The option name of a wire scheme number, or the number itself when it is none of ours. */
  static String name(int wireNumber) {
    for (Scheme s : values()) {
      if (s.wire.getNumber() == wireNumber) {
        return s.option;
      }
    }
    return "scheme " + wireNumber;
  }

  /** The codec a wire description asks for; unknown or unset schemes are refused by number. */
  static BufferCodec open(BufferCompression compression) {
    int number = compression.getSchemeValue();
    for (Scheme s : values()) {
      if (s.wire.getNumber() == number) {
        return s.codec(compression.hasLevel() ? OptionalInt.of(compression.getLevel()) : OptionalInt.empty());
      }
    }
    throw LanceCodecException.unsupported(
        "general: compression scheme " + number + " is not one of lz4 (1), zstd (2), snappy (1000)");
  }
}
