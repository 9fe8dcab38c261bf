package io.lancecodec.layout.planar;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.DecodedPage;
import io.lancecodec.spi.layout.LevelLayer;
import io.lancecodec.spi.layout.PageDecoder;
import java.util.Arrays;
import java.util.List;

/**
 * Dense pages without value buffers: a constant (every row valid, the same scalar) or no values
 * (a flat page whose every row is null). Reads touch no buffer.
 */
final class DenseScalarDecoder implements PageDecoder {
  private final long numRows;
  /** The scalar, or null for a page of nulls. */
  private final byte[] scalar;
  private final List<LevelLayer> layers;

  DenseScalarDecoder(long numRows, byte[] scalar, List<LevelLayer> layers) {
    this.numRows = numRows;
    this.scalar = scalar;
    this.layers = layers;
  }

  @Override
  public long numRows() {
    return numRows;
  }

  @Override
  public long searchCacheBytes() {
    return scalar == null ? 0 : scalar.length;
  }

  @Override
  public DecodedPage read(long[] ranges) {
    long total = 0;
    for (int i = 0; i < ranges.length; i += 2) {
      if (!(0 <= ranges[i] && ranges[i] <= ranges[i + 1] && ranges[i + 1] <= numRows)) {
        throw LanceCodecException.invalidArgument("rows [" + ranges[i] + ", " + ranges[i + 1] + ") of a page of " + numRows);
      }
      total += ranges[i + 1] - ranges[i];
    }
    int n = LanceCodecException.checkedInt(total, "rows");
    if (scalar == null) {
      short[] def = new short[n];
      Arrays.fill(def, (short) 1);
      return new DecodedPage(new DataBlock.AllNull(n), null, def, n);
    }
    return new DecodedPage(SparsePageDecoder.constant(scalar).read(null, n), null, null, n, layers.size() > 1 ? layers : null);
  }
}
