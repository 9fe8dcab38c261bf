package io.lancecodec.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StatusLineTest {
  static final String CLEAR = "\r\033[K";

  /** Log lines scroll above the status, which is redrawn after each and erased at the end. */
  @Test
  void onATerminalTheStatusStaysBelowTheLog() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream term = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    StatusLine s = new StatusLine(term, true);
    s.show("tokens: ours-2.1");
    s.stream().println("# a log line");
    s.stream().print("# half");
    s.show("tokens: ref-2.1");
    s.stream().println(" a line");
    s.done();
    assertEquals(CLEAR + "tokens: ours-2.1" + CLEAR + "# a log line\ntokens: ours-2.1" + CLEAR + "# half"
        + " a line\ntokens: ref-2.1" + CLEAR, bytes.toString(StandardCharsets.UTF_8));
  }

  /** Not a terminal: the log lines as they are, no status, no control characters. */
  @Test
  void otherwiseNothingButTheLog() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream term = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    StatusLine s = new StatusLine(term, false);
    assertSame(term, s.stream());
    s.show("tokens: ours-2.1");
    s.stream().println("# a log line");
    s.done();
    assertEquals("# a log line\n", bytes.toString(StandardCharsets.UTF_8));
  }
}
