package io.lancecodec.layout.legacy;

import io.lancecodec.format.pb.v21.BlobLayout;
import io.lancecodec.format.pb.v21.PageLayout;
import io.lancecodec.layout.physical.Levels;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.layout.DecodedPage;
import io.lancecodec.spi.layout.EncodedPage;
import io.lancecodec.spi.layout.LayoutContext;
import io.lancecodec.spi.layout.LevelLayer;
import io.lancecodec.spi.layout.PageDecoder;
import io.lancecodec.spi.layout.PageInput;
import io.lancecodec.spi.layout.PageSource;
import java.util.List;

/**
 * The blob layout (v1): values live outside the page, anywhere in the file's data, and the
 * page's inner layout holds one description per row, a packed struct of u64 position and u64
 * size. Size 0 with position 0 is an empty value; size 0 with any other position is a null whose
 * position carries the levels (definition level in bits 16..31, repetition level in bits
 * 0..15). Under structs the page's layers name the struct levels too (a null struct is the
 * struct's definition level), and the descriptions stay one per row. Reading a row costs one
 * read into the descriptions and one per value.
 */
final class BlobPage {
  private BlobPage() {}

  /**
   * A page of blob values: each non-empty value goes to the file on its own (through the
   * context), and the page holds one description per row, a packed struct of (position, size),
   * wrapped in a {@code BlobLayout}. Under structs the rows are still the column's rows (no
   * lists), so a null at any level is its definition level in a description and the inner page
   * needs no levels. {@code page.layers()}: the blob's item layer and one per struct above it.
   */
  static EncodedPage encode(PageInput page, LayoutContext ctx, LegacyLayoutPlugin plugin) {
    if (!(page.values() instanceof DataBlock.VariableWidth values)) {
      throw LanceCodecException.internal("blob values must be variable-width, got " + page.values().getClass().getSimpleName());
    }
    if (page.repLevels() != null) {
      throw LanceCodecException.internal("blob pages hold no lists");
    }
    short[] def = page.defLevels();
    int n = LanceCodecException.checkedInt(page.numRows(), "blob rows");
    byte[] positions = new byte[n * 8];
    byte[] sizes = new byte[n * 8];
    for (int i = 0; i < n; i++) {
      long start = values.offset(i);
      long size = values.offset(i + 1) - start;
      long position = 0;
      if (def != null && def[i] != 0) {
        position = (long) (def[i] & 0xFFFF) << 16;
        size = 0;
      } else if (size > 0) {
        position = ctx.writeExternal(java.util.Arrays.copyOfRange(values.data(), (int) start, (int) (start + size)));
      }
      LittleEndian.putLong(positions, i * 8, position);
      LittleEndian.putLong(sizes, i * 8, size);
    }
    DataBlock descriptions = new DataBlock.Struct(
        List.of(new DataBlock.FixedWidth(positions, 64, n), new DataBlock.FixedWidth(sizes, 64, n)), n);
    PageInput input = new PageInput(descriptions, null, null, List.of(LevelLayer.ALL_VALID_ITEM), n, FieldOptions.DEFAULT);
    EncodedPage inner = plugin.encode(input, ctx);
    BlobLayout.Builder blob = BlobLayout.newBuilder().setInnerLayout((PageLayout) inner.layout());
    blob.addAllLayers(V21Grammar.toProto(page.layers()));
    PageLayout wrapped = PageLayout.newBuilder().setBlobLayout(blob).build();
    return new EncodedPage(inner.buffers(), wrapped, page.numRows());
  }

  static final class Decoder implements PageDecoder {
    private final BlobLayout layout;
    private final PageDecoder inner;
    private final PageSource source;
    private final long numRows;
    private final int maxDef;
    /** The struct layers above the blob, handed on with the levels; null for a top-level column. */
    private final List<LevelLayer> layers;
    /** Why the page cannot be read (a blob under a list), or null. */
    private final String unreadable;

    Decoder(BlobLayout layout, PageSource source, long numRows, LayoutContext ctx, LegacyLayoutPlugin plugin) {
      this.layout = layout;
      this.source = source;
      this.numRows = numRows;
      if (!layout.hasInnerLayout() || layout.getInnerLayout().getLayoutCase() == PageLayout.LayoutCase.LAYOUT_NOT_SET) {
        throw LanceCodecException.corrupt("blob page without an inner layout");
      }
      if (layout.getInnerLayout().hasBlobLayout()) {
        throw LanceCodecException.corrupt("blob page nested in a blob page");
      }
      List<LevelLayer> layers = V21Grammar.fromProto(layout.getLayersList());
      this.maxDef = Levels.maxDef(layers);
      this.layers = Levels.nested(layers) ? layers : null;
      if (Levels.maxRep(layers) > 0) {
        // lance 7.0.0 writes blobs under lists with one description per item and no repetition
        // levels, so where each row's list starts is not in the file (its own reader fails too).
        // Refused when read, not here, so the file's other columns stay readable.
        this.unreadable = "blob column under a list (layers " + layers
            + "): the page holds no repetition levels, so its rows cannot be rebuilt";
        this.inner = null;
        return;
      }
      this.unreadable = null;
      this.inner = plugin.open(layout.getInnerLayout(), source, numRows, ctx);
    }

    @Override
    public long numRows() {
      return numRows;
    }

    @Override
    public long searchCacheBytes() {
      return inner == null ? 0 : inner.searchCacheBytes();
    }

    @Override
    public DecodedPage read(long[] ranges) {
      if (unreadable != null) {
        throw LanceCodecException.unsupported(unreadable);
      }
      DecodedPage d = inner.read(ranges);
      int n = LanceCodecException.checkedInt(d.numRows(), "blob rows");
      if (!(d.values() instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() == 128 && fw.numValues() >= n)) {
        throw LanceCodecException.corrupt("blob page: descriptions decoded to " + d.values().getClass().getSimpleName()
            + ", expected 128-bit (position, size) rows");
      }
      byte[] desc = fw.data();
      short[] def = null;
      byte[][] values = new byte[n][];
      long total = 0;
      for (int i = 0; i < n; i++) {
        long position = LittleEndian.getLong(desc, i * 16);
        long size = LittleEndian.getLong(desc, i * 16 + 8);
        if (size == 0 && position != 0) {
          int rep = (int) (position & 0xFFFF);
          int level = (int) ((position >>> 16) & 0xFFFF);
          if (rep != 0 || level == 0 || level > maxDef || (position >>> 32) != 0) {
            throw LanceCodecException.corrupt("blob page: row " + i + " has the null marker " + position
                + ", which does not name a definition level of layers " + layout.getLayersList());
          }
          if (def == null) {
            def = new short[n];
          }
          def[i] = (short) level;
        } else if (size != 0) {
          if (position < 0 || size < 0 || size > source.externalEnd() - position) {
            throw LanceCodecException.corrupt("blob page: row " + i + " describes bytes [" + Long.toUnsignedString(position)
                + ", +" + Long.toUnsignedString(size) + ") outside the file's data (ends at " + source.externalEnd() + ")");
          }
          if (size > Integer.MAX_VALUE - 16) {
            throw LanceCodecException.unsupported("blob page: row " + i + " holds " + Long.toUnsignedString(size) + " bytes, over 2 GiB");
          }
          // the file checks the range against its data: a bad description fails as CORRUPT here
          values[i] = source.readExternal(position, (int) size);
          total += size;
          if (total > Integer.MAX_VALUE - 16) {
            throw LanceCodecException.unsupported("blob page: the rows read hold over 2 GiB of values; read fewer rows at a time");
          }
        }
      }
      byte[] data = new byte[(int) total];
      byte[] offsets = new byte[(n + 1) * 8];
      int at = 0;
      for (int i = 0; i < n; i++) {
        if (values[i] != null) {
          System.arraycopy(values[i], 0, data, at, values[i].length);
          at += values[i].length;
        }
        LittleEndian.putLong(offsets, (i + 1) * 8, at);
      }
      return new DecodedPage(new DataBlock.VariableWidth(offsets, 64, data, n), null, def, n, layers);
    }
  }
}
