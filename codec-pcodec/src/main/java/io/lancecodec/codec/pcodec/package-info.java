/**
 * Pcodec ("pco"), lossless compression of numerical sequences, format of pco 1.0 (Loncaric,
 * "Pcodec: Better Compression for Numerical Sequences", arXiv:2502.06112; reference
 * implementation and format description: https://github.com/pcodec/pcodec, {@code docs/format.md}).
 *
 * <p>A standalone file is the magic {@code "pco!"}, a standalone version byte (3), an optional
 * uniform number type byte, a count hint, the format version (4.1), then chunks, each introduced
 * by its number type byte and {@code n - 1} in 24 bits, and finally a zero byte. All bit packing
 * is little-endian.
 *
 * <p>Every number is first mapped to an unsigned "latent" of its width that preserves order.
 * A chunk's <b>mode</b> may split it into a primary and a secondary latent (int mult: quotient
 * and remainder by a base; float mult: multiple of a float base and an ULP adjustment; float
 * quant: high bits and low k bits; dict: index into a table of values). A <b>delta</b> encoding
 * may then replace the primary latents by consecutive differences (order 1..7), by differences
 * to a looked-back latent (the lookbacks form a third latent variable), or by residuals of a
 * small integer convolution (conv1). Each latent variable is then described by <b>bins</b>:
 * ranges {@code [lower, lower + 2^offsetBits)} with a weight each. In the page, every latent is
 * written as its bin, coded with tANS (four interleaved states, table of at most 2^14), followed
 * by its offset in the bin. Pages are processed in <b>batches</b> of 256 numbers: per batch and
 * latent variable, all tANS codes, then all offsets.
 *
 * <p>{@link io.lancecodec.codec.pcodec.Pco} is the entry point of the format.
 * {@link io.lancecodec.codec.pcodec.PcodecPlugin} is the Lance 2.3 plugin (the spec's "Pcodec"):
 * mini-block chunks of float16/32/64 values and fixed-size lists of them, each chunk one
 * standalone file of its numbers in item-major order, when a field asks
 * {@code lance-encoding:compression=pcodec} (docs/wire/compression-2.3.md, section 3.14).
 */
package io.lancecodec.codec.pcodec;
