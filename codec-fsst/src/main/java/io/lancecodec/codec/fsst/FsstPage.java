package io.lancecodec.codec.fsst;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.Fsst;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;

/**
 * One page's FSST plan, shared by the mini-block and per-value compressors: the table (one per
 * page, as the reference stores it in the encoding description) and the estimated size. A
 * proposal makes it from a sample and, when chosen, compresses the page with that table.
 */
final class FsstPage {
  final SymbolTable table;
  /** Estimated compressed string bytes (offsets and table not included). */
  final long estimatedDataBytes;
  /** The compressed sample, offered to inner compressors during the proposal. */
  final DataBlock.VariableWidth compressedSample;
  /** The encoder that compressed the sample, kept for the page so that its tables are built once. */
  private final FsstEncoder encoder;

  private FsstPage(SymbolTable table, long estimatedDataBytes, DataBlock.VariableWidth compressedSample, FsstEncoder encoder) {
    this.table = table;
    this.estimatedDataBytes = estimatedDataBytes;
    this.compressedSample = compressedSample;
    this.encoder = encoder;
  }

  /** The encoder of this page's table. */
  FsstEncoder encoder() {
    return encoder != null ? encoder : new FsstEncoder(table);
  }

  /**
   * Learns the table from a sample and estimates the page's compressed size by compressing the
   * sample; a page below {@link FsstFormat#MIN_COMPRESS_BYTES} string bytes gets the reference's
   * switched-off table (strings copied).
   */
  static FsstPage plan(DataBlock.VariableWidth block) {
    long dataBytes = dataBytes(block);
    if (dataBytes < FsstFormat.MIN_COMPRESS_BYTES) {
      return new FsstPage(SymbolTable.uncompressed(), dataBytes, block, null);
    }
    SymbolTableBuilder.Sample sample = SymbolTableBuilder.sample(block);
    SymbolTable table = SymbolTableBuilder.build(sample);
    FsstEncoder encoder = new FsstEncoder(table);
    byte[] out = new byte[2 * sample.size() + 8];
    int compressed = 0;
    int[] offs = sample.offsets();
    int w = block.bitsPerOffset() / 8;
    byte[] outOffsets = new byte[offs.length * w];
    for (int i = 0; i + 1 < offs.length; i++) {
      compressed = encoder.compress(sample.bytes(), offs[i], offs[i + 1], out, compressed);
      LittleEndian.putUnsigned(outOffsets, (i + 1) * w, w, compressed);
    }
    long estimate = sample.size() == 0 ? dataBytes : (long) Math.ceil((double) dataBytes * compressed / sample.size());
    DataBlock.VariableWidth compressedSample =
        new DataBlock.VariableWidth(outOffsets, block.bitsPerOffset(), Arrays.copyOf(out, compressed), offs.length - 1);
    return new FsstPage(table, estimate, compressedSample, encoder);
  }

  static long dataBytes(DataBlock.VariableWidth block) {
    return block.numValues() == 0 ? 0 : block.offset((int) block.numValues()) - block.offset(0);
  }

  /**
   * The {@code CompressiveEncoding} node: {@code fsst { symbol_table, values = inner }}, in the
   * grammar of {@code inner} (2.3's messages when the inner encoding is a 2.3 one; the fields are
   * numbered alike in both).
   */
  static Message encoding(SymbolTable table, Message inner) {
    if (inner instanceof io.lancecodec.format.pb.v23.CompressiveEncoding inner23) {
      return io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder()
          .setFsst(io.lancecodec.format.pb.v23.Fsst.newBuilder()
              .setSymbolTable(ByteString.copyFrom(table.serialize()))
              .setValues(inner23))
          .build();
    }
    return CompressiveEncoding.newBuilder()
        .setFsst(
            Fsst.newBuilder()
                .setSymbolTable(ByteString.copyFrom(table.serialize()))
                .setValues((CompressiveEncoding) inner))
        .build();
  }
}
