package io.lancecodec.codec.bitpack;

import io.lancecodec.format.pb.v23.CompressiveEncoding;

/**
 * A writer's plan for a family of 2.3 generic unsigned sequences: one descriptor for every member,
 * the payload bytes of all members together (exact, so the runtime compares honest sizes), and
 * each member's payload. Plans are built from the whole family, so a member's payload never
 * needs a parameter of its own.
 */
interface Plan23 {
  long bytes();

  CompressiveEncoding encoding();

  /** The payload of a member, its first {@code n} values in {@code v}; empty when metadata-only. */
  byte[] payload(long[] v, int n);
}
