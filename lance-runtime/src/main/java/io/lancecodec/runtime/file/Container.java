package io.lancecodec.runtime.file;

import java.nio.charset.StandardCharsets;

/**
 * Constants of the Lance v2 container: a data region of 64-byte aligned buffers, then global
 * buffer 0 (the file descriptor), the column metadata, the column-metadata and global-buffer
 * offset tables (16-byte entries: u64 position, u64 size) and a 40-byte footer ending in the
 * magic {@code LANC}. See docs/wire/container.md.
 */
public final class Container {
  public static final byte[] MAGIC = "LANC".getBytes(StandardCharsets.US_ASCII);
  public static final int FOOTER_BYTES = 40;
  public static final int ALIGNMENT = 64;
  /** Pad byte the reference writes between buffers ('H'); readers accept any value. */
  public static final byte PAD = 0x48;

  private Container() {}
}
