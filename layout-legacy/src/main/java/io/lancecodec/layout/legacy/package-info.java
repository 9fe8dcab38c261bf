/**
 * The page layouts of Lance 2.1 and 2.2, whose metadata is {@code lance.encodings21.PageLayout}:
 * mini-block (small values in independently compressed chunks, with repetition index and
 * optional dictionary), full-zip (large values zipped with their levels as control words),
 * constant (one scalar, or all null, with the levels) and the v1 blob layout.
 *
 * <p>"Legacy" names the grammar, not its quality: these are the stable layouts the reference
 * writes today, beside the unstable 2.3 planar layout ({@code lance.encodings23.PlanarLayout},
 * module layout-planar), which separates a page's structure from its values. Files of both
 * grammars are read by routing each page's {@code Any} type URL to the plugin that declares it.
 *
 * <p>The chunk and row bytes of mini-block and full-zip pages are written and read by the shared
 * physical grammar ({@code io.lancecodec.layout.physical}), which 2.3's dense planes use too;
 * this package turns its grammar-neutral specs into 2.1/2.2 messages ({@code V21Grammar}) and
 * decides which layout a page gets. Byte layouts and decision rules are in
 * docs/wire/structural.md; no codec's bytes are read here: compression trees are opened, asked
 * and described through the registry.
 */
package io.lancecodec.layout.legacy;
