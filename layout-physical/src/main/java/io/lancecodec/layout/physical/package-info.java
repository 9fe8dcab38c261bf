/**
 * The mini-block and full-zip physical grammars, written once: chunk metadata words, chunk
 * headers and padding, the repetition index, dictionaries shared by the chunks, full-zip control
 * words, length prefixes and row indexes, and the readers that find rows in them.
 *
 * <p>Pages are described here by grammar-neutral records ({@link MiniBlockSpec},
 * {@link FullZipSpec}); each layout maps them to its own grammar's messages: 2.1/2.2's
 * {@code MiniBlockLayout} and {@code FullZipLayout} in layout-legacy, 2.3's dense
 * {@code ChunkedValues} and {@code ZippedValues} (and sparse values without levels) in
 * layout-planar. Compression descriptors stay opaque {@code Message}s opened through the
 * layout context, so the same bytes decode under either grammar's compression tree.
 */
package io.lancecodec.layout.physical;
