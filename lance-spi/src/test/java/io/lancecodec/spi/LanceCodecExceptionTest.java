package io.lancecodec.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Messages stay one line whatever a file puts into the names they quote (found by fuzzing). */
class LanceCodecExceptionTest {
  @Test
  void controlCharactersFromAFileAreEscaped() {
    LanceCodecException e = LanceCodecException.unsupported("field 'a\nb': type 'x\ry\tz\u0000\u007f\u2028' is not supported");
    assertEquals("field 'a\\nb': type 'x\\ry\\tz\\u0000\\u007f\\u2028' is not supported", e.getMessage());
    assertEquals("f.lance: field 'a\\nb': type 'x\\ry\\tz\\u0000\\u007f\\u2028' is not supported",
        e.within("f.lance").getMessage());
    assertEquals(LanceCodecException.Kind.UNSUPPORTED, e.kind());
  }

  @Test
  void plainMessagesAreKeptAsTheyAre() {
    String m = "page 3: bit width 70 exceeds 64";
    assertSame(m, LanceCodecException.corrupt(m).getMessage());
    assertNull(new LanceCodecException(LanceCodecException.Kind.INTERNAL, null).getMessage());
  }

  @Test
  void longMessagesAreCut() {
    String name = "n".repeat(1_000_000);
    String m = LanceCodecException.corrupt("field '" + name + "' is bad").getMessage();
    assertTrue(m.length() < LanceCodecException.MAX_MESSAGE_CHARS + 40, m.length() + " characters");
    assertTrue(m.endsWith("... (1000015 characters)"), m.substring(m.length() - 40));
    String escaped = LanceCodecException.corrupt("\n".repeat(5000)).getMessage();
    assertTrue(escaped.length() < LanceCodecException.MAX_MESSAGE_CHARS + 40 && escaped.startsWith("\\n\\n"));
  }
}
