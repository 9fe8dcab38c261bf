/**
 * ALP, "Adaptive Lossless floating-Point" compression (Afroozeh, Kuffó, Boncz, SIGMOD 2024), and
 * its ALP-RD variant, as mini-block chunks of the unstable Lance 2.3 format. ALP turns values
 * that were decimals before they became binary floats into small integers with one power-of-ten
 * scaling per chunk; ALP-RD splits other float64 bit patterns into a dictionary-coded left part
 * and a bit-packed right part. Full layout, sources and a worked example:
 * {@code docs/wire/alp.md}.
 *
 * <p>A chunk holds 1 to 1024 values and four buffers; all integers are little-endian. T is the
 * value width (32 or 64 bits), S = T / 8 bytes.
 *
 * <pre>
 * ALP chunk
 *   buffer 0  payload: n integers of W bits in the out-of-line bit-packing layout with T-bit
 *             words: one FastLanes block of 128 * W bytes (values zero-padded to 1024), or, for
 *             n &lt; 1024 when W * (1024 - n) &gt;= (T - W) * n, n raw S-byte words
 *   buffer 1  header
 *               byte 0     mode: bit 0 Delta, bit 1 use_div, bit 2 ALP-RD (0 here), others 0
 *               byte 1     e, 0..10 (float32) or 0..18 (float64)
 *               byte 2     f, 0..e (written 0 and ignored with use_div)
 *               byte 3     W, 0..T
 *               FOR:       min               S bytes, signed
 *               Delta:     first, min_delta  S bytes each, signed
 *   buffer 2  exception positions, u16 each, ascending, each &lt; n
 *   buffer 3  exception values, the original S-byte bit patterns, same order
 *
 * integers  FOR:   q_i = min + p_i
 *           Delta: q_0 = first + p_0 (p_0 written 0), q_i = q_(i-1) + min_delta + p_i
 *           (T-bit wrapping arithmetic)
 * values    multiply: v_i = float(q_i) * 10^f * 10^-e     use_div: v_i = float(q_i) / 10^e
 *           in T-bit IEEE arithmetic, left to right, then each exception overwrites its slot
 *
 * ALP-RD chunk (float64 only)
 *   buffer 0  right parts: n values of d bits, same layout as the ALP payload (T = 64, W = d)
 *   buffer 1  [0x04][d, 1..63][index_bits, 0..16][0][dict_len u32, 1..n]
 *   buffer 2  dict_len left parts, u64 each, ascending, each below 2^(64 - d)
 *   buffer 3  n dictionary indices of index_bits bits, out-of-line layout with 16-bit words;
 *             empty when index_bits = 0 (every index is 0)
 * value     bits_i = (dict[index_i] &lt;&lt; d) | right_i
 * </pre>
 *
 * <p>The multiply powers are the correctly rounded T-bit conversions of the decimal literals
 * 1eK and 1e-K ({@link io.lancecodec.codec.alp.PowersOfTen}). The writer admits a value only if
 * this formula gives back its exact bits; everything else (NaN payloads, -0.0, infinities, most
 * subnormals, values that were never short decimals) is an exception, so decoding is bit-exact.
 *
 * <p>{@link io.lancecodec.codec.alp.AlpPlugin} puts these chunks in 2.3 files under the message
 * {@code Alp{values = Flat{32|64}}}: it offers them for any page of 32/64-bit words that passes
 * its gates (the entropy gate for {@code lance-encoding:alp=auto}, the integer-word gate in every
 * mode, since the writer's blocks do not say floats from integers) and that they make smaller,
 * with the exact stored size, so the writer keeps ALP only where it is the smallest form.
 */
package io.lancecodec.codec.alp;
