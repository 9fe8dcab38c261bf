package io.lancecodec.spi;

import java.util.List;

/**
 * One node of a compression tree as {@code inspect} shows it: the codec's short name, its
 * parameters and its children, rendered compactly as {@code name(parameters, child, ...)}, e.g.
 * {@code general(zstd, bitpack(32))}. The owner plugin of each node builds its summary, so a
 * layout never needs to know what the codecs under it are.
 */
public record EncodingSummary(String name, String parameters, List<EncodingSummary> children) {
  public EncodingSummary {
    children = List.copyOf(children);
  }

  public static EncodingSummary of(String name, String parameters, EncodingSummary... children) {
    return new EncodingSummary(name, parameters, List.of(children));
  }

  @Override
  public String toString() {
    if (parameters.isEmpty() && children.isEmpty()) {
      return name;
    }
    StringBuilder sb = new StringBuilder(name).append('(').append(parameters);
    String sep = parameters.isEmpty() ? "" : ", ";
    for (EncodingSummary c : children) {
      sb.append(sep).append(c);
      sep = ", ";
    }
    return sb.append(')').toString();
  }
}
