package io.lancecodec.spi.layout;

import com.google.protobuf.Message;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.PluginVersion;
import java.util.Set;

/**
 * A structural layout family (2.1/2.2 mini-block + full-zip + constant, or the 2.3 planar
 * layout), found with {@link java.util.ServiceLoader}. It decides how a page's values and levels
 * become buffers and reads them back; compression of the buffers is delegated to codec plugins
 * through the {@link LayoutContext}. A file's pages are routed to the plugin by the type of
 * their encoding message (the {@code Any} type URL {@code /} + the message's full name), so the
 * runtime knows no layout grammar.
 */
public interface LayoutPlugin {
  String name();

  default String version() {
    return PluginVersion.of(getClass());
  }

  default int spiVersion() {
    return CodecPlugin.SPI_VERSION;
  }

  /** File versions this plugin writes pages for (and whose pages it reads). */
  Set<FileVersion> fileVersions();

  /**
   * The page encoding messages this plugin reads and writes: the root messages stored in a
   * page's {@code Any} (e.g. {@code lance.encodings21.PageLayout}); each has exactly one owner.
   */
  Set<Class<? extends Message>> pageEncodings();

  /** Encodes one page; the layout message returned is an instance of a {@link #pageEncodings()} class. */
  EncodedPage encode(PageInput page, LayoutContext context);

  /**
   * The rows of a page whose metadata stores {@code storedRows}, from its encoding message alone
   * (before the page is opened): the same count for most pages, but a 2.3 page with sparse
   * fixed-size-list layers stores its rows times their dimensions. CORRUPT when the two cannot
   * agree (a stored count that the dimensions do not divide).
   */
  default long rows(Message page, long storedRows) {
    return storedRows;
  }

  /**
   * Opens a page whose encoding message {@code page} is of a class in {@link #pageEncodings()};
   * {@code numRows} is the count its metadata stores (see {@link #rows}).
   */
  PageDecoder open(Message page, PageSource source, long numRows, LayoutContext context);

  /**
   * The page as {@code inspect} shows it, from its encoding message and buffer sizes alone: no
   * buffer is read and no decompressor opened ({@code decoders} only summarizes compression
   * trees), so a file can be described even where its codecs are missing.
   */
  PageDescription describe(Message page, PageSource source, Decoders decoders);
}
