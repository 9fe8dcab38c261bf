package io.lancecodec.layout.physical;

import java.util.List;

/**
 * A page written in one of the shared physical grammars: its buffers in order and the
 * grammar-neutral description ({@link MiniBlockSpec} or {@link FullZipSpec}) that the calling
 * layout turns into its own metadata message.
 */
public record PhysicalPage<S>(List<byte[]> buffers, S spec) {}
