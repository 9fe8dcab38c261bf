package io.lancecodec.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressTest {
  long now;
  final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  String drawn() {
    String s = bytes.toString(StandardCharsets.UTF_8);
    bytes.reset();
    return s;
  }

  @Test
  void drawsAfterASecondAtMostFourTimesASecondAndClearsItsLine() {
    Progress p = new Progress(err, true, () -> now);
    now = 900_000_000L;
    p.update(1000, 0.1);
    assertEquals("", drawn(), "nothing in the first second");
    now = 1_000_000_000L;
    p.update(65_536, 0.25);
    assertEquals("\rwriting: [########                      ]  25% 65,536 rows, 1.0 s", drawn());
    now += 100_000_000L;
    p.update(131_072, 0.5);
    assertEquals("", drawn(), "100 ms later: not redrawn");
    now += 150_000_000L;
    p.update(131_072, Double.NaN);
    String line = drawn();
    assertEquals("\rwriting: 131,072 rows, 1.3 s", line.stripTrailing());
    assertTrue(line.endsWith(" "), "blanks over the longer previous line");
    p.finish();
    String cleared = drawn();
    assertTrue(cleared.matches("\r +\r"), cleared);
    assertFalse(cleared.contains("\n"));
  }

  @Test
  void disabledDrawsNothing() {
    Progress p = new Progress(err, false, () -> now);
    for (int i = 0; i < 20; i++) {
      now += 500_000_000L;
      p.update(i, 0.5);
    }
    p.finish();
    assertEquals("", drawn());
  }

  @Test
  void aWriteThroughRunNeverDrawsProgress() throws Exception {
    // Main.run is what scripts' and tests' callers get: no terminal, so stderr holds only the summary.
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("progress");
    java.nio.file.Path csv = dir.resolve("p.csv");
    java.nio.file.Files.writeString(csv, "a\n1\n");
    MainTest.Result r = MainTest.run("write", csv.toString(), dir.resolve("p.lance").toString());
    assertEquals(0, r.status());
    assertTrue(r.err().startsWith("wrote 1 rows") && !r.err().contains("\r"), r.err());
  }
}
