package io.lancecodec.runtime;

import io.lancecodec.runtime.arrow.Leaf;
import io.lancecodec.runtime.arrow.NestedAssembler;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.DecodedPage;
import io.lancecodec.spi.layout.ElementReader;
import io.lancecodec.spi.layout.PageDecoder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/**
 * {@code rows[row][from..to)} of a list column: when every column of the field sits on a page
 * that can find elements by itself ({@link ElementReader}, e.g. mini-block with a depth-2
 * repetition index) only those elements are read; otherwise the whole row is read and sliced.
 */
final class ElementTake {
  private ElementTake() {}

  static FieldVector take(LanceFileReader reader, String column, long row, int from, int to, BufferAllocator allocator) {
    List<Field> fields = reader.schema().getFields();
    int f = -1;
    for (int i = 0; i < fields.size() && f < 0; i++) {
      f = fields.get(i).getName().equals(column) ? i : -1;
    }
    if (f < 0) {
      throw LanceCodecException.invalidArgument("unknown column '" + column + "'");
    }
    Field field = fields.get(f);
    if (!(field.getType() instanceof ArrowType.List || field.getType() instanceof ArrowType.LargeList)) {
      throw LanceCodecException.invalidArgument("column '" + column + "' is " + field.getType() + ", not a list");
    }
    if (row < 0 || row >= reader.numRows()) {
      throw LanceCodecException.invalidArgument("row " + row + " is outside the file's " + reader.numRows() + " rows");
    }
    if (from < 0 || to < from) {
      throw LanceCodecException.invalidArgument("element range [" + from + ", " + to + ") of row " + row + " is not a range");
    }
    try {
      if (from < to) {
        FieldVector direct = direct(reader, f, field, row, from, to, allocator);
        if (direct != null) {
          return direct;
        }
      }
      try (VectorSchemaRoot whole = reader.take(new long[] {row}, List.of(column), allocator)) {
        FieldVector list = whole.getVector(0);
        long start = list.isNull(0) ? 0 : startOf(list);
        long count = list.isNull(0) ? 0 : endOf(list) - start;
        if (to > count) {
          throw LanceCodecException.invalidArgument("row " + row + " has " + count + " elements, asked for [" + from + ", " + to + ")");
        }
        return slice(list, start + from, to - from, allocator);
      }
    } catch (LanceCodecException e) {
      throw e.within("column '" + column + "'");
    }
  }

  /** The elements read from just the pages' chunks holding them, or null when a page cannot. */
  private static FieldVector direct(LanceFileReader reader, int f, Field field, long row, int from, int to, BufferAllocator allocator) {
    List<Leaf> leaves = new ArrayList<>();
    List<NestedAssembler.Unravelled> data = new ArrayList<>();
    for (LanceFileReader.Column col : reader.columns()) {
      if (col.leaf().field() != f) {
        continue;
      }
      long[] first = col.firstRows();
      int p = Arrays.binarySearch(first, row);
      // firstRows has pages + 1 entries; empty pages repeat a value, so take the last page starting at or before row
      p = p >= 0 ? p : -p - 2;
      while (p + 1 < first.length - 1 && first[p + 1] <= row) {
        p++;
      }
      PageDecoder page = col.pages().get(p);
      if (!(page instanceof ElementReader er)) {
        return null;
      }
      DecodedPage d = er.readElements(row - first[p], from, to);
      if (d == null) {
        return null;
      }
      leaves.add(col.leaf());
      data.add(NestedAssembler.unravel(col.leaf(), List.of(d)));
    }
    try (VectorSchemaRoot one = VectorSchemaRoot.create(new Schema(List.of(field)), allocator)) {
      FieldVector list = one.getVector(0);
      NestedAssembler.fill(list, field, 0, leaves, data);
      if (list.getValueCount() != 1 || list.isNull(0) || endOf(list) - startOf(list) != to - from) {
        throw LanceCodecException.corrupt("elements [" + from + ", " + to + ") of row " + row + " decoded to "
            + (list.getValueCount() == 1 && !list.isNull(0) ? endOf(list) - startOf(list) + " elements" : list.getValueCount() + " rows"));
      }
      return slice(list, startOf(list), to - from, allocator);
    }
  }

  private static long startOf(FieldVector list) {
    return list instanceof LargeListVector l ? l.getElementStartIndex(0) : ((ListVector) list).getElementStartIndex(0);
  }

  private static long endOf(FieldVector list) {
    return list instanceof LargeListVector l ? l.getElementEndIndex(0) : ((ListVector) list).getElementEndIndex(0);
  }

  /** {@code n} elements from {@code start} of the list's data vector, as a vector of its own. */
  private static FieldVector slice(FieldVector list, long start, int n, BufferAllocator allocator) {
    FieldVector items = list instanceof LargeListVector l ? l.getDataVector() : ((ListVector) list).getDataVector();
    if (n == 0) {
      FieldVector empty = items.getField().createVector(allocator);
      empty.allocateNew();
      empty.setValueCount(0);
      return empty;
    }
    TransferPair tp = items.getTransferPair(allocator);
    tp.splitAndTransfer(LanceCodecException.checkedInt(start, "element index"), n);
    return (FieldVector) tp.getTo();
  }
}
