package io.lancecodec.codec.fsst;

import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;

/**
 * A finished FSST symbol table as stored in the {@code Fsst.symbol_table} field: up to 255
 * symbols of 1 to 8 bytes, code {@code i} standing for symbol {@code i}. Immutable.
 */
final class SymbolTable {
  private final boolean compressed;
  private final int terminator;
  private final int suffixLimit;
  private final long[] symbols;
  private final int[] lengths;

  /**
   * @param symbols symbol bytes, byte 0 in the least significant position, zero above the length
   * @param lengths 1..8 per symbol, same count as {@code symbols}
   */
  SymbolTable(boolean compressed, int terminator, int suffixLimit, long[] symbols, int[] lengths) {
    if (symbols.length != lengths.length || symbols.length > FsstFormat.MAX_SYMBOLS) {
      throw LanceCodecException.internal("symbol table of " + symbols.length + " symbols");
    }
    this.compressed = compressed;
    this.terminator = terminator;
    this.suffixLimit = suffixLimit;
    this.symbols = symbols.clone();
    this.lengths = lengths.clone();
  }

  /** The table of a page whose strings were copied unchanged (switch = 0, no symbols). */
  static SymbolTable uncompressed() {
    return new SymbolTable(false, 0, 0, new long[0], new int[0]);
  }

  boolean compressed() {
    return compressed;
  }

  int size() {
    return symbols.length;
  }

  long symbol(int code) {
    return symbols[code];
  }

  int length(int code) {
    return lengths[code];
  }

  int terminator() {
    return terminator;
  }

  int suffixLimit() {
    return suffixLimit;
  }

  /** The 2312-byte wire form: header word, the symbol words, the lengths, zero fill. */
  byte[] serialize() {
    byte[] out = new byte[FsstFormat.TABLE_BYTES];
    long header =
        FsstFormat.MAGIC
            | (compressed ? 1L : 0L) << FsstFormat.SWITCH_SHIFT
            | (long) (suffixLimit & 0xFF) << 16
            | (long) (terminator & 0xFF) << 8
            | symbols.length;
    LittleEndian.putLong(out, 0, header);
    int pos = 8;
    for (long s : symbols) {
      LittleEndian.putLong(out, pos, s);
      pos += 8;
    }
    for (int len : lengths) {
      out[pos++] = (byte) len;
    }
    return out;
  }

  /** Parses and checks a table read from a file; any violation is CORRUPT. */
  static SymbolTable parse(byte[] table) {
    if (table.length != FsstFormat.TABLE_BYTES) {
      throw LanceCodecException.corrupt(
          "fsst: symbol table has " + table.length + " bytes, expected " + FsstFormat.TABLE_BYTES);
    }
    long header = LittleEndian.getLong(table, 0);
    if ((header & 0xFFFFFFFF_00000000L) != FsstFormat.MAGIC) {
      throw LanceCodecException.corrupt(
          "fsst: symbol table header 0x" + Long.toHexString(header) + " lacks the FSST magic");
    }
    boolean compressed = ((header >>> FsstFormat.SWITCH_SHIFT) & 1) != 0;
    int n = (int) (header & 0xFF);
    if (n > FsstFormat.MAX_SYMBOLS) {
      throw LanceCodecException.corrupt("fsst: symbol table declares " + n + " symbols, at most 255 allowed");
    }
    long[] symbols = new long[n];
    int[] lengths = new int[n];
    for (int i = 0; i < n; i++) {
      symbols[i] = LittleEndian.getLong(table, 8 + 8 * i);
      int len = table[8 + 8 * n + i] & 0xFF;
      if (len < 1 || len > FsstFormat.MAX_SYMBOL_LENGTH) {
        throw LanceCodecException.corrupt("fsst: symbol " + i + " has length " + len + ", expected 1..8");
      }
      lengths[i] = len;
    }
    return new SymbolTable(compressed, (int) (header >>> 8) & 0xFF, (int) (header >>> 16) & 0xFF, symbols, lengths);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SymbolTable t
        && compressed == t.compressed
        && terminator == t.terminator
        && suffixLimit == t.suffixLimit
        && Arrays.equals(symbols, t.symbols)
        && Arrays.equals(lengths, t.lengths);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(symbols) * 31 + Arrays.hashCode(lengths);
  }
}
