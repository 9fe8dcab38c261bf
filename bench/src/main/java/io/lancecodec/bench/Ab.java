package io.lancecodec.bench;

import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.DoubleSupplier;

/**
 * Two builds of our modules side by side in one JVM, for A/B runs that the machine's load hits
 * alike: each side gets a class loader of its own with its jars (or class directories) put before
 * bench's class path.
 */
public final class Ab {
  private Ab() {}

  /** A loader per side: {@code a} and {@code b} (colon-separated entries, {@code -} for none) each before {@code base}. */
  public static ClassLoader[] loaders(String a, String b, String base) throws MalformedURLException {
    ClassLoader[] loaders = new ClassLoader[2];
    String[] first = {a, b};
    for (int k = 0; k < 2; k++) {
      List<URL> urls = new ArrayList<>();
      for (String e : (first[k].equals("-") ? "" : first[k] + ":").concat(base).split(":")) {
        if (!e.isEmpty()) {
          urls.add(Path.of(e).toUri().toURL());
        }
      }
      loaders[k] = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }
    return loaders;
  }

  /**
   * Runs both sides once a round, the one that goes first switching every round, after
   * {@code warm} rounds that are not kept (the JIT compiles each side's path on its own); returns
   * {@code rates[side][round]}.
   */
  public static double[][] alternate(DoubleSupplier[] side, int warm, int rounds) {
    double[][] rates = new double[2][rounds];
    for (int r = -warm; r < rounds; r++) {
      for (int j = 0; j < 2; j++) {
        int k = (j + Math.max(r, 0)) % 2;
        double rate = side[k].getAsDouble();
        if (r >= 0) {
          rates[k][r] = rate;
        }
      }
    }
    return rates;
  }

  /** B / A per round, sorted: the median and quartiles of the pairs measured side by side. */
  public static double[] sortedRatios(double[][] rates) {
    double[] ratio = new double[rates[0].length];
    for (int r = 0; r < ratio.length; r++) {
      ratio[r] = rates[1][r] / rates[0][r];
    }
    Arrays.sort(ratio);
    return ratio;
  }
}
