package io.lancecodec.interop;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.complex.writer.BaseWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Does the reference (lance-core 7.0.0) read mini-block pages with our opt-in repetition index
 * of depth 2? Each file is read by the reference in a separate throwaway JVM, since a reader
 * that misreads the index may abort its process. The reference reads only the first two u64 of
 * each entry (rows, then "partial > 0"), so our middle word is non-zero exactly when the chunk
 * has a trailing row. Before that low bit existed, a chunk lying wholly inside one long inner
 * list had a middle word of 0 and the reference silently dropped a row (199 of 200); the giant
 * inner list case pins that it now reads identically.
 */
@ExtendWith(NativeLibCleanup.class)
class RepIndexDepthInteropTest {
  @TempDir Path dir;

  private static Field listOfLists(String name, ArrowType leaf) {
    Field item = new Field("item", FieldType.nullable(leaf), null);
    Field inner = new Field("item", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item));
    return new Field(name, FieldType.nullable(ArrowType.List.INSTANCE), List.of(inner));
  }

  /** Rows of up to {@code outer} inner lists of up to {@code inner} ints; or one giant inner list first. */
  private Path write(FileVersion v, String name, int rows, int outer, int inner, boolean giant) {
    Field f = listOfLists("ll", new ArrowType.Int(32, true));
    Schema schema = new Schema(List.of(f));
    Path path = dir.resolve(name + "-" + v + ".lance");
    Random rnd = new Random(name.hashCode());
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, Interop.ALLOC);
        LanceFileWriter w = LanceFileWriter.open(path, schema,
            WriterOptions.defaults().withVersion(v).withFieldDefault("lance-encoding:repetition-index-depth", "2"))) {
      UnionListWriter lw = ((ListVector) root.getVector(0)).getWriter();
      for (int i = 0; i < rows; i++) {
        lw.setPosition(i);
        if (rnd.nextInt(20) == 0) {
          continue; // null row
        }
        lw.startList();
        int lists = giant && i == 0 ? 1 : rnd.nextInt(outer + 1);
        for (int j = 0; j < lists; j++) {
          BaseWriter.ListWriter il = lw.list();
          il.startList();
          int items = giant && i == 0 ? 20_000 : rnd.nextInt(inner + 1);
          for (int k = 0; k < items; k++) {
            il.integer().writeInt(rnd.nextInt(1 << 20));
          }
          il.endList();
        }
        lw.endList();
      }
      root.setRowCount(rows);
      w.write(root);
    }
    try (LanceFileReader r = LanceFileReader.open(path)) {
      String d = r.columnSummaries().get(0).pages().get(0).toString();
      assertTrue(d.contains("repetition index depth 2"), d);
    }
    return path;
  }

  private static List<String> probe(Path file) throws Exception {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
        "-cp", cp,
        RepIndexDepthProbeMain.class.getName(), file.toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "probe JVM finished");
    NativeLibCleanup.clean();
    System.out.println("depth-2 probe " + file.getFileName() + ": exit " + p.exitValue() + "\n" + out.lines()
        .filter(l -> !l.startsWith("SLF4J")).limit(12).reduce("", (a, b) -> a + "  " + b + "\n"));
    List<String> lines = new ArrayList<>(out.lines().filter(l -> l.startsWith("full=") || l.startsWith("take=")).toList());
    lines.add("exit=" + p.exitValue());
    return lines;
  }

  @ParameterizedTest
  @EnumSource(value = FileVersion.class, names = {"V2_1", "V2_2"})
  void referenceReadsDepthTwo(FileVersion v) throws Exception {
    assertEquals(List.of("full=identical", "take=identical", "exit=0"), probe(write(v, "short-lists", 5000, 4, 6, false)));
    assertEquals(List.of("full=identical", "take=identical", "exit=0"), probe(write(v, "long-rows", 300, 60, 40, false)));
  }

  @ParameterizedTest
  @EnumSource(value = FileVersion.class, names = {"V2_1", "V2_2"})
  void referenceReadsDepthTwoWhenAChunkLiesInsideOneInnerList(FileVersion v) throws Exception {
    assertEquals(List.of("full=identical", "take=identical", "exit=0"), probe(write(v, "giant-inner-list", 200, 3, 5, true)));
  }
}
