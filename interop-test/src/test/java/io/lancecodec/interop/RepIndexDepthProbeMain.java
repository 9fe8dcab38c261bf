package io.lancecodec.interop;

import io.lancecodec.runtime.LanceFileReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Runs in a throwaway JVM (the reference may abort it): reads one file with our reader and with
 * the reference (whole file, then sorted single rows) and prints one line per read saying
 * whether the reference agrees.
 */
public final class RepIndexDepthProbeMain {
  private RepIndexDepthProbeMain() {}

  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    List<String> ours;
    Field field;
    try (LanceFileReader r = LanceFileReader.open(file); VectorSchemaRoot all = r.readRange(0, r.numRows(), null, Interop.ALLOC)) {
      ours = Interop.canon(all.getVector(0));
      field = r.schema().getFields().get(0);
    }
    System.out.println("ours=" + ours.size() + " rows");
    System.out.flush();
    report("full", ours, Interop.refRead(file, field, null, ours.size()));
    long[] rows = Interop.sortedDistinctRows(ours.size(), Math.min(50, ours.size()), new Random(1));
    report("take", Interop.pick(ours, rows), Interop.refRead(file, field, Interop.singleRowRanges(rows), ours.size()));
  }

  private static void report(String what, List<String> want, List<String> got) {
    if (want.size() != got.size()) {
      System.out.println(what + "=different: " + got.size() + " rows, expected " + want.size());
    } else {
      int bad = -1;
      for (int i = 0; i < want.size() && bad < 0; i++) {
        bad = want.get(i).equals(got.get(i)) ? -1 : i;
      }
      System.out.println(what + "=" + (bad < 0 ? "identical" : "different at " + bad));
    }
    System.out.flush();
  }
}
