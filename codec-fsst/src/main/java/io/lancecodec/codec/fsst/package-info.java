/**
 * FSST, "Fast Static Symbol Table" string compression (Boncz, Neumann, Leis, "FSST: Fast Random
 * Access String Compression", VLDB 2020), as Lance 2.1/2.2 stores it in the
 * {@code lance.encodings21.Fsst} message (2.3: {@code lance.encodings23.Fsst}, the same fields
 * and bytes, over {@code Variable} only): {@code symbol_table} holds the page's one table and
 * {@code values} the encoding of the compressed strings (Variable in the reference, i.e. the
 * compressed strings are chunked like plain strings in mini-block pages and zipped value by value
 * in full-zip pages). FSST is transparent: every value is compressed on its own and keeps its own
 * offsets, so any value can be decoded alone.
 *
 * <p>Symbol table, always 2312 bytes, all integers little-endian:
 *
 * <pre>
 * bytes 0..7     header u64 = 0x46535354 &lt;&lt; 32      "FSST" magic (bytes 4..7 = 54 53 53 46)
 *                           | switch       &lt;&lt; 24     1 = codes follow, 0 = strings stored as is
 *                           | suffix_limit &lt;&lt; 16     (encoder hint, ignored by decoders)
 *                           | terminator   &lt;&lt; 8      (encoder hint, ignored by decoders)
 *                           | n_symbols               0..255
 * then           n_symbols u64 symbol words, symbol byte 0 in the least significant byte
 * then           n_symbols u8 lengths, each 1..8
 * then           zero fill up to 2312 bytes
 * </pre>
 *
 * <p>Codes: a byte {@code c < n_symbols} stands for the first {@code length[c]} bytes of symbol
 * {@code c}; the byte 255 (never a symbol, as there are at most 255) is followed by one literal
 * byte. Escapes never cross value boundaries. Codes are numbered by symbol length, 2-byte symbols
 * first (those that start a longer symbol lowest), then 3..8, single bytes last. A page with less
 * than 32 KiB of string bytes gets a table with switch = 0 and its strings copied unchanged.
 *
 * <p>This codec ends the chain for the string bytes; the compressed strings feed one inner
 * encoding chosen by the runtime. Tables are learnt from a fixed-seed sample, so our pages are
 * reproducible (the reference's are not: it samples with an OS-seeded generator). Learning a
 * table counts each pass over the sample in two halves, the second on a pool thread when one is
 * free ({@code Parallelism.Partner}); the table is the same either way. Its counters and
 * candidates (about 3.5 MB) are kept for the next page, softly referenced, at most one set per
 * processor.
 */
package io.lancecodec.codec.fsst;
