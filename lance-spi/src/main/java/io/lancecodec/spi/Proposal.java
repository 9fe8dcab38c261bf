package io.lancecodec.spi;

/**
 * A plugin's offer to compress a block: the compressor it would use and the bytes it expects to
 * produce. The runtime takes the smallest estimate; ties go to the plugin whose name sorts first,
 * so the choice never depends on class-path order.
 */
public record Proposal<C>(String codec, long estimatedBytes, C compressor) {}
