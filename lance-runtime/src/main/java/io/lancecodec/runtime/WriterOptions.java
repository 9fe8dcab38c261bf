package io.lancecodec.runtime;

import io.lancecodec.spi.FileVersion;
import java.util.Objects;

/**
 * Options of a {@link LanceFileWriter}: the file version (default 2.1, as the reference's
 * writer defaults to), the buffered bytes per column after which a page is cut (8 MiB like the
 * reference), and the plugin registry to encode with.
 */
public record WriterOptions(FileVersion version, long pageBytesPerColumn, CodecRegistry registry) {
  public static final long DEFAULT_PAGE_BYTES = 8L * 1024 * 1024;

  public WriterOptions {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(registry, "registry");
    if (pageBytesPerColumn <= 0) {
      throw new IllegalArgumentException("pageBytesPerColumn must be positive");
    }
  }

  public static WriterOptions defaults() {
    return new WriterOptions(FileVersion.V2_1, DEFAULT_PAGE_BYTES, CodecRegistry.discover());
  }

  public WriterOptions withVersion(FileVersion v) {
    return new WriterOptions(v, pageBytesPerColumn, registry);
  }

  public WriterOptions withPageBytesPerColumn(long bytes) {
    return new WriterOptions(version, bytes, registry);
  }

  public WriterOptions withRegistry(CodecRegistry r) {
    return new WriterOptions(version, pageBytesPerColumn, r);
  }
}
