package io.lancecodec.spi;

import com.google.protobuf.Message;
import java.util.Set;

/**
 * A structural layout family (2.1/2.2 mini-block + full-zip + constant, or the 2.3 planar
 * layout), found with {@link java.util.ServiceLoader}. It decides how a page's values and levels
 * become buffers and reads them back; compression of the buffers is delegated to codec plugins
 * through the {@link LayoutContext}.
 */
public interface LayoutPlugin {
  String name();

  default String version() {
    String v = getClass().getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  default int spiVersion() {
    return CodecPlugin.SPI_VERSION;
  }

  Set<FileVersion> fileVersions();

  /** The page-layout message classes (the Any payload types) this plugin reads. */
  Set<Class<? extends Message>> decodes();

  EncodedPage encode(PageInput page, LayoutContext context);

  /** Opens a page whose {@code layout} message is of a class in {@link #decodes()}. */
  PageDecoder open(Message layout, PageSource source, long numRows, LayoutContext context);
}
