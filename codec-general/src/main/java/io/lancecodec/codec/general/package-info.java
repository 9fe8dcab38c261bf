/**
 * codec-general: general-purpose compression (Zstandard, LZ4, and Snappy as a lance-codec
 * extension) and byte-stream-split for the Lance 2.1/2.2 grammar, and the same frames and chunks
 * in the unstable 2.3 grammar (lz4 and zstd only; docs/wire/compression-2.3.md). Messages owned:
 * {@code General} and {@code ByteStreamSplit} of {@code lance.encodings21} and {@code
 * lance.encodings23}, and {@code AxisDelta} of {@code lance.encodings23}.
 *
 * <h2>Frames</h2>
 * Every compressed buffer is one frame, framed exactly as the reference (lance-encoding
 * {@code block.rs}) writes it:
 * <pre>
 *   zstd    [u64 LE uncompressed length][one zstd frame]     (level: BufferCompression.level, default 0)
 *   lz4     [u32 LE uncompressed length][raw LZ4 block]      (block format, default fast mode)
 *   snappy  [raw snappy block]                               (lance-codec only; its varint is the length)
 * </pre>
 * A zstd buffer shorter than 8 bytes, or one starting with the zstd magic {@code 28 B5 2F FD}
 * with the frame-header reserved bit clear, is a bare legacy stream without the prefix. An empty
 * buffer decodes to nothing.
 *
 * <h2>Contexts</h2>
 * <ul>
 *   <li>Mini-block: {@code general{cfg, values = inner}}; each chunk's slice of the inner
 *       compressor's buffer 0 is one frame, the other buffers are untouched. There is no
 *       per-chunk "stored" flag: a wrapped page has every chunk compressed. The writer leaves a
 *       page unwrapped when buffer 0 is under 4 KiB or the frames do not shrink it.</li>
 *   <li>Block (2.2: levels, dictionary items): the inner block's bytes (Flat: raw values;
 *       Variable: its block form) are one frame.</li>
 *   <li>Per value (full-zip): {@code general{cfg, variable{flat{32|64}}}}; each value is a frame,
 *       offsets are the running frame sizes. The reference always uses zstd level 0 here.</li>
 *   <li>Per value over fixed-width rows (2.3): {@code general{cfg, fixed_size_list{...}}} or
 *       {@code general{cfg, axis_delta{a, s, fixed_size_list{...}}}}; each row is a frame of
 *       exactly the row's bytes, an empty frame a null row (zeros). Axis delta stores, in spans
 *       of {@code a * s} elements of each tensor, every element after the first {@code s} as its
 *       difference from the element {@code s} before, modulo 2^T; it is valid per value only.</li>
 *   <li>Byte-stream-split: {@code byte_stream_split{flat{T}}}, T in 16/32/64; chunks of 4 KiB
 *       ({@code 4096 / (T/8)} values); in a chunk of m values byte j of value i is at
 *       {@code j*m + i}. Written only under a general scheme, for 32/64-bit values, when
 *       {@code lance-encoding:bss} is {@code on}, or {@code auto} (the default) and the mean
 *       byte-position entropy of the first 64 values is below 4 bits.</li>
 * </ul>
 *
 * <h2>Snappy</h2>
 * Snappy is not a Lance scheme. It is written only when a field asks for
 * {@code lance-encoding:compression=snappy}, as {@code BufferCompression.scheme =
 * LANCE_CODEC_SNAPPY (1000)}, a value of the existing enum rather than a new message: the
 * reference (prost) reads an unknown enum value as UNSPECIFIED and fails the page with
 * "Unsupported compression scheme", whereas an unknown {@code CompressiveEncoding} case would
 * leave the oneof empty and panic its reader. <b>Files with snappy pages are not readable by the
 * reference</b>; never use it for files meant for other Lance readers. A lance-codec reader
 * without this jar fails with MISSING_PLUGIN naming {@code io.lancecodec:codec-general}. In 2.3,
 * whose grammar has extension nodes for codecs outside it, snappy frames sit under the extension
 * {@code io.lancecodec.snappy} instead ({@link General23}), and a reader without this jar names
 * that codec id.
 *
 * <h2>Hostile input</h2>
 * The declared length is checked before any allocation against a budget (exact for Flat,
 * byte-stream-split and bit-packed inner encodings, else a fixed ceiling per context) and
 * against the scheme's largest expansion ratio; the output is a fresh array that must be filled
 * exactly. LZ4 uses lz4-java's pure-Java safe decoder only.
 */
package io.lancecodec.codec.general;
