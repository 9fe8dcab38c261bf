package io.lancecodec.layout.physical;

import com.google.protobuf.Message;
import io.lancecodec.spi.layout.LevelLayer;
import java.util.List;

/**
 * What a reader needs to know of a mini-block page besides its buffers, whichever grammar
 * stores it: the 2.1/2.2 {@code MiniBlockLayout}, or the 2.3 {@code ChunkedValues} with its dense
 * levels. The compression descriptors are the grammar's own {@code CompressiveEncoding} messages,
 * opened through the layout context.
 *
 * @param layers level layers, inner-most first; {@code [ALL_VALID_ITEM]} for a page without levels
 * @param repCompression null without list layers
 * @param defCompression null when the layers produce no definition level
 * @param dictionary null without a dictionary (then {@code numDictionaryItems} is 0)
 * @param numItems values (without lists) or levels (with them) in the page's chunks
 * @param largeChunks u32 chunk metadata words and buffer sizes (2.2 and later) instead of u16
 * @param metadataBytes the serialized size of the grammar's message, counted as search cache
 */
public record MiniBlockSpec(
    List<LevelLayer> layers,
    Message valueCompression,
    Message repCompression,
    Message defCompression,
    Message dictionary,
    long numDictionaryItems,
    long numBuffers,
    long numItems,
    long repetitionIndexDepth,
    boolean largeChunks,
    long metadataBytes) {}
