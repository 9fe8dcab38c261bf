package io.lancecodec.layout.physical;

import com.google.protobuf.Message;
import io.lancecodec.spi.layout.LevelLayer;
import java.util.List;

/**
 * What a reader needs to know of a full-zip page besides its buffers, whichever grammar stores
 * it: the 2.1/2.2 {@code FullZipLayout}, or the 2.3 {@code ZippedValues} with its dense levels (or
 * none, for sparse structure: no control words).
 *
 * @param layers level layers, inner-most first; {@code [ALL_VALID_ITEM]} for a page without levels
 * @param bitsPerValue bits of a fixed-width value, or -1 for variable-width values
 * @param bitsPerOffset bits of a variable-width value's length prefix, or -1 for fixed-width values
 * @param metadataBytes the serialized size of the grammar's message, counted as search cache
 */
public record FullZipSpec(
    List<LevelLayer> layers,
    int bitsRep,
    int bitsDef,
    long numItems,
    long numVisibleItems,
    Message valueCompression,
    int bitsPerValue,
    int bitsPerOffset,
    long metadataBytes) {}
