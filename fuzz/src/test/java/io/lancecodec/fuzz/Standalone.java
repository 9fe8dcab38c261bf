package io.lancecodec.fuzz;

import java.util.function.Consumer;

/**
 * The entry point of Jazzer's standalone driver ({@code bench/fuzz.sh}) for every target: the
 * driver runs classes with {@code @FuzzTest} methods through JUnit, which skips the warm-up, so it
 * is given this class and {@code -Dfuzz.target=NAME} instead. Before fuzzing, the target runs its
 * committed inputs, so that class loading, Jazzer's instrumentation and the first compilations do
 * not count against the first inputs' time limit.
 */
public final class Standalone {
  private static Consumer<byte[]> run;

  private Standalone() {}

  public static void fuzzerInitialize() {
    Fuzz.Target t = Fuzz.target(System.getProperty("fuzz.target", ""));
    Fuzz.warmUp(t.run(), t.inputs());
    run = t.run();
  }

  public static void fuzzerTestOneInput(byte[] input) {
    run.accept(input);
  }
}
