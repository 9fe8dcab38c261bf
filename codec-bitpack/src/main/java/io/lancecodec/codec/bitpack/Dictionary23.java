package io.lancecodec.codec.bitpack;

import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Dictionary;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * 2.3 block Dictionary: u32 indices (a leaf, one per value) into {@code num_dictionary_items}
 * items (a leaf of the sequence's width). When either child has a payload, the block's payload
 * is the specification's frame:
 *
 * <pre>
 * u64 indices_payload_bytes   (0 for a metadata-only indices leaf)
 * u64 items_payload_bytes     (0 for a metadata-only items leaf)
 * indices payload
 * dictionary-items payload    (16 + both lengths must be the payload's size)
 * </pre>
 *
 * With two metadata-only children there is no payload. A dictionary holds at most as many items
 * as the block has values (a writer never needs more), so a forged item count cannot size an
 * allocation beyond what the container's cardinality allows.
 */
final class Dictionary23 implements BlockDecompressor {
  static final int HEADER = 16;

  private final BlockDecompressor indices;
  private final BlockDecompressor items;
  private final long numItems;
  private final int bits;

  Dictionary23(Dictionary d, Decoders children) {
    this.indices = Seq.child(children, d.hasIndices(), d.getIndices(), 32, "dictionary: indices");
    this.items = Seq.child(children, d.hasItems(), d.getItems(), 0, "dictionary: items");
    this.numItems = d.getNumDictionaryItems();
    this.bits = items.bitsPerValue();
  }

  @Override
  public int bitsPerValue() {
    return bits;
  }

  @Override
  public boolean consumesPayload() {
    return indices.consumesPayload() || items.consumesPayload();
  }

  @Override
  public DataBlock decompress(byte[] data, long numValues) {
    int n = LanceCodecException.checkedInt(numValues, "dictionary value count");
    if (Long.compareUnsigned(numItems, numValues) > 0) {
      throw LanceCodecException.corrupt("dictionary: " + Long.toUnsignedString(numItems) + " items for " + numValues
          + " values (at most one item a value)");
    }
    long indexBytes = 0;
    long itemBytes = 0;
    if (consumesPayload()) {
      if (data.length < HEADER) {
        throw LanceCodecException.corrupt("dictionary: payload of " + data.length + " bytes has no 16-byte frame header");
      }
      indexBytes = LittleEndian.getLong(data, 0);
      itemBytes = LittleEndian.getLong(data, 8);
      long rest = data.length - HEADER;
      if (Long.compareUnsigned(indexBytes, rest) > 0 || itemBytes != rest - indexBytes) {
        throw LanceCodecException.corrupt("dictionary: frame of " + Long.toUnsignedString(indexBytes) + " + "
            + Long.toUnsignedString(itemBytes) + " bytes, " + rest + " follow the header");
      }
      if (!indices.consumesPayload() && indexBytes != 0 || !items.consumesPayload() && itemBytes != 0) {
        throw LanceCodecException.corrupt("dictionary: a metadata-only child has a framed length (" + indexBytes + " index bytes, "
            + itemBytes + " item bytes)");
      }
    } else if (data.length != 0) {
      throw LanceCodecException.corrupt("dictionary: both children are metadata-only, but given a payload of " + data.length + " bytes");
    }
    int w = bits == 0 ? 64 : bits;
    int off = consumesPayload() ? HEADER : 0;
    byte[] idx = Seq.decodeChild(indices, data, off, (int) indexBytes, numValues, 32, "dictionary: indices").data();
    byte[] it = Seq.decodeChild(items, data, off + (int) indexBytes, (int) itemBytes, numItems, w, "dictionary: items").data();
    int wb = w / 8;
    byte[] out = new byte[LanceCodecException.checkedInt((long) n * wb, "dictionary output size")];
    for (int i = 0; i < n; i++) {
      long k = LittleEndian.getInt(idx, 4 * i) & 0xFFFFFFFFL;
      if (k >= numItems) {
        throw LanceCodecException.corrupt("dictionary: index " + k + " of value " + i + " is not below " + numItems + " items");
      }
      if (wb == 4) {
        LittleEndian.putInt(out, 4 * i, LittleEndian.getInt(it, 4 * (int) k));
      } else {
        LittleEndian.putLong(out, 8 * i, LittleEndian.getLong(it, 8 * (int) k));
      }
    }
    return new DataBlock.FixedWidth(out, w, numValues);
  }

  /**
   * A dictionary of each member's distinct values in unsigned order, for a family of non-empty
   * members with one item count among them, at most half their values (fewer items than that
   * rarely beats packing the values); null otherwise.
   */
  static Plan23 plan(List<long[]> family, int[] counts, int bits) {
    List<long[]> itemLists = new ArrayList<>(family.size());
    List<long[]> indexLists = new ArrayList<>(family.size());
    int[] itemCounts = new int[family.size()];
    int items = -1;
    for (int m = 0; m < family.size(); m++) {
      int n = counts[m];
      long[] v = family.get(m);
      if (n == 0 || Seq.nonDecreasing(v, n) && Rle23.runCount(v, n) * 2L > n) {
        return null; // a sorted member's distinct values are its runs: no sort needed to see there are too many
      }
      long[] distinct = distinct(v, n);
      if (distinct.length * 2L > n || (items >= 0 && distinct.length != items)) {
        return null;
      }
      items = distinct.length;
      itemLists.add(distinct);
      indexLists.add(indices(family.get(m), n, distinct));
      itemCounts[m] = items;
    }
    Leaf23.Plan itemPlan = Leaf23.best(itemLists, itemCounts, bits, Leaf23.ALL);
    Leaf23.Plan indexPlan = Leaf23.best(indexLists, counts, 32, Leaf23.ALL);
    boolean framed = !(itemPlan.metadataOnly() && indexPlan.metadataOnly());
    long bytes = (framed ? (long) HEADER * family.size() : 0) + itemPlan.bytes() + indexPlan.bytes();
    int numItems = items;
    CompressiveEncoding encoding = CompressiveEncoding.newBuilder()
        .setDictionary(Dictionary.newBuilder().setIndices(indexPlan.encoding()).setItems(itemPlan.encoding())
            .setNumDictionaryItems(numItems))
        .build();
    return new Plan23() {
      @Override
      public long bytes() {
        return bytes;
      }

      @Override
      public CompressiveEncoding encoding() {
        return encoding;
      }

      @Override
      public byte[] payload(long[] v, int n) {
        long[] d = distinct(v, n);
        Leaf23.check(d.length == numItems, "dictionary plan given a sequence of " + d.length + " distinct values, not " + numItems);
        byte[] a = indexPlan.payload(indices(v, n, d), n);
        byte[] b = itemPlan.payload(d, d.length);
        if (!framed) {
          return Seq.EMPTY;
        }
        byte[] out = new byte[HEADER + a.length + b.length];
        LittleEndian.putLong(out, 0, a.length);
        LittleEndian.putLong(out, 8, b.length);
        System.arraycopy(a, 0, out, HEADER, a.length);
        System.arraycopy(b, 0, out, HEADER + a.length, b.length);
        return out;
      }
    };
  }

  /** The distinct values among the first {@code n}, ascending as unsigned numbers. */
  static long[] distinct(long[] v, int n) {
    long[] s = new long[n];
    for (int i = 0; i < n; i++) {
      s[i] = v[i] ^ Long.MIN_VALUE; // signed order of the flipped values is the unsigned order
    }
    Arrays.sort(s);
    int d = 0;
    for (int i = 0; i < n; i++) {
      if (i == 0 || s[i] != s[d - 1]) {
        s[d++] = s[i];
      }
    }
    long[] out = Arrays.copyOf(s, d);
    for (int i = 0; i < d; i++) {
      out[i] ^= Long.MIN_VALUE;
    }
    return out;
  }

  /** Each value's position among {@code items} (ascending unsigned). */
  private static long[] indices(long[] v, int n, long[] items) {
    long[] flipped = new long[items.length];
    for (int i = 0; i < items.length; i++) {
      flipped[i] = items[i] ^ Long.MIN_VALUE;
    }
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = Arrays.binarySearch(flipped, v[i] ^ Long.MIN_VALUE);
    }
    return out;
  }
}
