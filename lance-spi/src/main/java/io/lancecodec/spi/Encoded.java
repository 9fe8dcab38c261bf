package io.lancecodec.spi;

import com.google.protobuf.Message;

/**
 * What every compressor returns: the encoded data together with the {@code CompressiveEncoding}
 * message that describes it. A decoder is built from that message alone.
 */
public record Encoded<T>(T data, Message encoding) {}
