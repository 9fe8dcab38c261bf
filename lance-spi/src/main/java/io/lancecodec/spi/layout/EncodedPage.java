package io.lancecodec.spi.layout;

import com.google.protobuf.Message;
import java.util.List;

/**
 * A page ready to be written: its buffers in order and the layout message (a {@code PageLayout}
 * of the file version's grammar) that the runtime wraps in a protobuf {@code Any}.
 */
public record EncodedPage(List<byte[]> buffers, Message layout, long numRows) {}
