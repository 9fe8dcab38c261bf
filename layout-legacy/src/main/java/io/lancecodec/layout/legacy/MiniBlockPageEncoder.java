package io.lancecodec.layout.legacy;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.MiniBlockLayout;
import io.lancecodec.format.pb.v21.PageLayout;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.EncodedPage;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LayoutContext;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.PageInput;
import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * Writes a mini-block page: buffer 0 holds one metadata word per chunk (u16 in 2.1, u32 in
 * 2.2: (chunk bytes / 8 - 1) shifted left by 4, then log2 of the value count), buffer 1 the
 * chunks. A chunk is a header (u16 level count, u16 def size when the page has def levels, one
 * size per value buffer: u16 in 2.1, u32 in 2.2), then the def bytes and each value buffer,
 * every part padded with 0xFE to 8 bytes.
 */
final class MiniBlockPageEncoder {
  private static final byte PAD = (byte) 0xFE;
  /** 12 bits of (words - 1) in a 2.1 metadata word. */
  private static final long MAX_WORDS_SMALL = 1 << 12;
  /** 28 bits of (words - 1) in a 2.2 metadata word. */
  private static final long MAX_WORDS_LARGE = 1L << 28;

  private MiniBlockPageEncoder() {}

  static EncodedPage encode(PageInput page, LayoutContext ctx) {
    return encode(page, ctx, null);
  }

  /** With a dictionary, the chunks hold its indices and the items go to buffer 2. */
  static EncodedPage encode(PageInput page, LayoutContext ctx, DictionaryEncoder.Result dict) {
    boolean large = ctx.version().atLeast(FileVersion.V2_2);
    io.lancecodec.spi.DataBlock chunked = dict == null ? page.values() : dict.indices();
    MiniBlockCompressed values = ctx.miniBlockFor(chunked, page.options()).compress(chunked);
    int numBuffers = values.buffers().size();
    short[] def = page.defLevels();
    BlockCompressor defCompressor = def == null ? null : ctx.levelsFor(Levels.block(def, 0, def.length));
    CompressiveEncoding defEncoding = null;

    ByteArrayOutputStream meta = new ByteArrayOutputStream();
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    int[] bufferPos = new int[numBuffers];
    long item = 0;
    List<MiniBlockChunk> chunks = values.chunks();
    for (int k = 0; k < chunks.size(); k++) {
      MiniBlockChunk chunk = chunks.get(k);
      boolean last = k == chunks.size() - 1;
      long n = last ? values.numValues() - item : 1L << chunk.logNumValues();
      byte[] defBytes = null;
      if (def != null) {
        Encoded<byte[]> enc = defCompressor.compress(Levels.block(def, (int) item, (int) (item + n)));
        defBytes = enc.data();
        defEncoding = (CompressiveEncoding) enc.encoding();
        if (defBytes.length > 0xFFFF) {
          throw LanceCodecException.unsupported("mini-block: def levels of a chunk exceed 64 KiB");
        }
      }
      int header = 2 + (def != null ? 2 : 0) + numBuffers * (large ? 4 : 2);
      int size = pad8(header);
      if (defBytes != null) {
        size += pad8(defBytes.length);
      }
      for (int b = 0; b < numBuffers; b++) {
        size += pad8(chunk.bufferSizes()[b]);
      }
      byte[] out = new byte[size];
      java.util.Arrays.fill(out, PAD);
      int pos = 0;
      LittleEndian.putShort(out, pos, (short) (def != null ? n : 0));
      pos += 2;
      if (defBytes != null) {
        LittleEndian.putShort(out, pos, (short) defBytes.length);
        pos += 2;
      }
      for (int b = 0; b < numBuffers; b++) {
        int s = chunk.bufferSizes()[b];
        if (large) {
          LittleEndian.putInt(out, pos, s);
          pos += 4;
        } else {
          if (s > 0xFFFF) {
            throw LanceCodecException.unsupported("mini-block: a 2.1 chunk buffer exceeds 64 KiB");
          }
          LittleEndian.putShort(out, pos, (short) s);
          pos += 2;
        }
      }
      pos = pad8(pos);
      if (defBytes != null) {
        System.arraycopy(defBytes, 0, out, pos, defBytes.length);
        pos = pad8(pos + defBytes.length);
      }
      for (int b = 0; b < numBuffers; b++) {
        int s = chunk.bufferSizes()[b];
        System.arraycopy(values.buffers().get(b), bufferPos[b], out, pos, s);
        bufferPos[b] += s;
        pos = pad8(pos + s);
      }
      long words = size / 8;
      if (words - 1 >= (large ? MAX_WORDS_LARGE : MAX_WORDS_SMALL)) {
        throw LanceCodecException.unsupported("mini-block: chunk of " + size + " bytes exceeds the layout's limit");
      }
      long word = ((words - 1) << 4) | chunk.logNumValues();
      byte[] w = new byte[large ? 4 : 2];
      LittleEndian.putUnsigned(w, 0, w.length, word);
      meta.write(w, 0, w.length);
      data.write(out, 0, out.length);
      item += n;
    }
    MiniBlockLayout.Builder layout =
        MiniBlockLayout.newBuilder()
            .setValueCompression((CompressiveEncoding) values.encoding())
            .addAllLayers(Levels.toProto(page.layers()))
            .setNumBuffers(numBuffers)
            .setNumItems(values.numValues())
            .setHasLargeChunk(large);
    if (def != null) {
      if (defEncoding == null) {
        defEncoding = (CompressiveEncoding) defCompressor.compress(Levels.block(def, 0, 0)).encoding();
      }
      layout.setDefCompression(defEncoding);
    }
    List<byte[]> buffers = new java.util.ArrayList<>(List.of(meta.toByteArray(), data.toByteArray()));
    if (dict != null) {
      Encoded<byte[]> items = ctx.blockFor(dict.items(), page.options().forDictionaryValues()).compress(dict.items());
      layout.setDictionary((CompressiveEncoding) items.encoding()).setNumDictionaryItems(dict.numItems());
      buffers.add(items.data());
    }
    return new EncodedPage(
        buffers,
        PageLayout.newBuilder().setMiniBlockLayout(layout).build(),
        page.numRows());
  }

  static int pad8(int n) {
    return (n + 7) & ~7;
  }
}
