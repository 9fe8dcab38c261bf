package io.lancecodec.runtime;

import java.nio.charset.StandardCharsets;

/**
 * Constants of the Lance v2 container: a data region of 64-byte aligned buffers, then global
 * buffer 0 (the file descriptor), the column metadata, the column-metadata and global-buffer
 * offset tables (16-byte entries: u64 position, u64 size) and a 40-byte footer ending in the
 * magic {@code LANC}. See docs/wire/container.md.
 */
final class Container {
  static final byte[] MAGIC = "LANC".getBytes(StandardCharsets.US_ASCII);
  static final int FOOTER_BYTES = 40;
  static final int ALIGNMENT = 64;
  /** Pad byte the reference writes between buffers ('H'); readers accept any value. */
  static final byte PAD = 0x48;
  static final String PAGE_LAYOUT_URL = "/lance.encodings21.PageLayout";
  static final String COLUMN_ENCODING_URL = "/lance.encodings.ColumnEncoding";

  private Container() {}
}
