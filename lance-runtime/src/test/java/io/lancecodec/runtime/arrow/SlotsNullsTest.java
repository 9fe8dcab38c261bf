package io.lancecodec.runtime.arrow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A layer's null count, counted a word at a time, equals the slots added as null, at every
 * count (whole words, whole bytes and a partial last byte), with valid runs and single slots
 * mixed (seeded).
 */
class SlotsNullsTest {
  @Test
  void nullCountIsTheNullSlotsAdded() {
    Random rnd = new Random(17);
    for (int round = 0; round < 300; round++) {
      NestedAssembler.Slots s = new NestedAssembler.Slots(rnd.nextBoolean(), false, 1 + rnd.nextInt(200));
      int nulls = 0;
      int steps = rnd.nextInt(60);
      for (int k = 0; k < steps; k++) {
        if (rnd.nextInt(3) == 0) {
          s.addValid(rnd.nextInt(150));
        } else {
          boolean valid = rnd.nextInt(4) != 0;
          s.add(valid);
          nulls += valid ? 0 : 1;
        }
        assertEquals(nulls, s.nulls(), "round " + round + ", step " + k + ", " + s.count + " slots");
      }
    }
  }
}
