package io.lancecodec.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.FileVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Takes from a string column stored as indices into a dictionary resolve only the rows they ask
 * for (not each chunk whole): single rows, runs inside one chunk, runs across chunk boundaries and
 * many ranges in one chunk, with null rows among them, all equal to the written values.
 */
class DictionaryTakeTest extends WithAllocator {
  private static final int N = 50_000;
  private static final String[] WORDS = {"rain", "sun", "fog", "drizzle", "snow", "a rather longer item of forty bytes....."};

  @ParameterizedTest
  @EnumSource(value = FileVersion.class, names = {"V2_1", "V2_2", "V2_3"})
  void takesOfDictionaryStrings(FileVersion version) throws Exception {
    Random rnd = new Random(7);
    String[] values = new String[N];
    for (int i = 0; i < N; i++) {
      values[i] = rnd.nextInt(10) == 0 ? null : WORDS[rnd.nextInt(WORDS.length)];
    }
    Schema schema = new Schema(List.of(new Field("w", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));
    Path file = dir.resolve("dict-" + version + ".lance");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      VarCharVector v = (VarCharVector) root.getVector(0);
      v.allocateNew();
      for (int i = 0; i < N; i++) {
        if (values[i] == null) {
          v.setNull(i);
        } else {
          v.setSafe(i, values[i].getBytes(StandardCharsets.UTF_8));
        }
      }
      root.setRowCount(N);
      try (LanceFileWriter w = LanceFileWriter.open(file, schema, WriterOptions.defaults().withVersion(version))) {
        w.write(root);
      }
    }
    try (LanceFileReader r = LanceFileReader.open(file)) {
      String pages = r.columnSummaries().get(0).pages().toString();
      assertTrue(pages.contains("dictionary of " + WORDS.length), pages);
      for (int t = 0; t < 300; t++) {
        long[] rows;
        switch (t % 4) {
          case 0 -> rows = new long[] {rnd.nextInt(N)};
          case 1 -> {
            // a run that may cross from one chunk into the next
            int start = rnd.nextInt(N - 3000);
            rows = new long[1 + rnd.nextInt(3000)];
            for (int i = 0; i < rows.length; i++) {
              rows[i] = start + i;
            }
          }
          case 2 -> {
            // several ranges close together, most in the same chunk
            int start = rnd.nextInt(N - 600);
            rows = rnd.ints(40, start, start + 600).asLongStream().sorted().distinct().toArray();
          }
          default -> rows = rnd.ints(100, 0, N).asLongStream().sorted().distinct().toArray();
        }
        try (VectorSchemaRoot back = r.take(rows, null, allocator)) {
          assertEquals(rows.length, back.getRowCount());
          VarCharVector got = (VarCharVector) back.getVector(0);
          for (int i = 0; i < rows.length; i++) {
            String want = values[(int) rows[i]];
            String have = got.isNull(i) ? null : new String(got.get(i), StandardCharsets.UTF_8);
            assertEquals(want, have, version + " take " + Arrays.toString(Arrays.copyOf(rows, Math.min(rows.length, 5))) + " row " + rows[i]);
          }
        }
      }
    }
  }
}
