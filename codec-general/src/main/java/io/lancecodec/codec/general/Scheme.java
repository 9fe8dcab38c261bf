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

  /**
   * The 2.3 wire description: lz4 and zstd only, the grammar has no other scheme (snappy is the
   * extension node of {@link General23#wrap}).
   */
  io.lancecodec.format.pb.v23.BufferCompression describe23(OptionalInt level) {
    if (this == SNAPPY) {
      throw LanceCodecException.internal("snappy has no 2.3 wire value");
    }
    io.lancecodec.format.pb.v23.BufferCompression.Builder b = io.lancecodec.format.pb.v23.BufferCompression.newBuilder()
        .setScheme(this == LZ4 ? io.lancecodec.format.pb.v23.CompressionScheme.COMPRESSION_ALGORITHM_LZ4
            : io.lancecodec.format.pb.v23.CompressionScheme.COMPRESSION_ALGORITHM_ZSTD);
    level.ifPresent(b::setLevel);
    return b.build();
  }

  /**
   * The codec of a 2.3 description: lz4 (1) and zstd (2); 0 is CORRUPT (a writer always names its
   * scheme), any other number UNSUPPORTED (a later grammar's scheme).
   */
  static BufferCodec open23(io.lancecodec.format.pb.v23.BufferCompression compression) {
    int number = compression.getSchemeValue();
    OptionalInt level = compression.hasLevel() ? OptionalInt.of(compression.getLevel()) : OptionalInt.empty();
    if (number == io.lancecodec.format.pb.v23.CompressionScheme.COMPRESSION_ALGORITHM_LZ4_VALUE) {
      return LZ4.codec(level);
    }
    if (number == io.lancecodec.format.pb.v23.CompressionScheme.COMPRESSION_ALGORITHM_ZSTD_VALUE) {
      return ZSTD.codec(level);
    }
    if (number == 0) {
      throw LanceCodecException.corrupt("general: compression scheme unspecified");
    }
    throw LanceCodecException.unsupported("general: 2.3 compression scheme " + number + " is not one of lz4 (1), zstd (2)");
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
