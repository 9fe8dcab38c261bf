package io.lancecodec.spi.layout;

import com.google.protobuf.Message;
import java.util.List;

/**
 * A page ready to be written: its buffers in order, the layout message (a {@code PageLayout}
 * of the file version's grammar) that the runtime wraps in a protobuf {@code Any}, and the row
 * count its metadata stores, from which {@link LayoutPlugin#rows} gives back the page's rows.
 */
public record EncodedPage(List<byte[]> buffers, Message layout, long numRows) {}
