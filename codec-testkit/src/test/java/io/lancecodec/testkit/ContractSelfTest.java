package io.lancecodec.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.CodecPlugin;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/**
 * The contract catches what it promises to: a toy codec passes it, and each flaw of the toy
 * fails exactly the test that guards against it (the others keep passing).
 */
class ContractSelfTest {
  /** The contract run on the toy with one flaw. */
  static class Subject extends CodecContract {
    private final XorCodec.Flaw flaw;

    Subject(XorCodec.Flaw flaw) {
      this.flaw = flaw;
    }

    @Override
    protected CodecPlugin plugin() {
      return new XorCodec(flaw);
    }

    @Override
    protected Host host() {
      return Host.standalone(List.of(plugin()));
    }

    @Override
    protected Set<ValueKind> kinds() {
      return Set.of(ValueKind.U32, ValueKind.I32, ValueKind.F32, ValueKind.STRING);
    }
  }

  /** Names of the contract's tests that failed, each counted once. */
  static Set<String> failures(XorCodec.Flaw flaw) {
    Subject s = new Subject(flaw);
    java.util.TreeSet<String> failed = new java.util.TreeSet<>();
    run("offersOnSomething", s::offersOnSomething, failed);
    run("registration", s::registration, failed);
    run("threadSafe", s::threadSafe, failed);
    if (!failed.contains("offersOnSomething")) {
      runAll("roundTrips", s.roundTrips(), failed);
      runAll("proposalsAreHonest", s.proposalsAreHonest(), failed);
      runAll("deterministic", s.deterministic(), failed);
      runAll("hostileInput", s.hostileInput(), failed);
    }
    return failed;
  }

  interface Body {
    void run() throws Throwable;
  }

  private static void run(String name, Body body, Set<String> failed) {
    try {
      body.run();
    } catch (TestAbortedException skipped) {
      // an assumption, not a failure
    } catch (Throwable t) {
      failed.add(name);
    }
  }

  private static void runAll(String name, Stream<DynamicTest> tests, Set<String> failed) {
    tests.forEach(t -> run(name, t.getExecutable()::execute, failed));
  }

  @Test
  void theToyPassesAndOffersOnItsKinds() {
    assertEquals(Set.of(), failures(XorCodec.Flaw.NONE));
    // in the one version it declares, every non-empty family of the 32-bit kinds: u32 with the
    // token sample (7), i32 without a sample (6), f32 with special values and coordinates (8)
    assertEquals(7 + 6 + 8, new Subject(XorCodec.Flaw.NONE).cases().size());
  }

  @Test
  void eachFlawFailsItsTest() {
    assertEquals(Set.of("proposalsAreHonest"), failures(XorCodec.Flaw.LIES_ABOUT_SIZE));
    assertEquals(Set.of("roundTrips", "threadSafe"), failures(XorCodec.Flaw.WRONG_DECODE));
    assertEquals(Set.of("hostileInput"), failures(XorCodec.Flaw.UNCHECKED_INPUT));
    assertEquals(Set.of("deterministic", "threadSafe"), failures(XorCodec.Flaw.NONDETERMINISTIC));
    assertEquals(Set.of("offersOnSomething"), failures(XorCodec.Flaw.SILENT));
  }

  /** Races are not certain to show: the shared scratch array must be caught within a few runs. */
  @Test
  void sharedStateFailsThreadSafety() {
    boolean caught = false;
    for (int attempt = 0; attempt < 5 && !caught; attempt++) {
      Subject s = new Subject(XorCodec.Flaw.SHARED_SCRATCH);
      try {
        s.threadSafe();
      } catch (Throwable t) {
        caught = true;
      }
    }
    assertTrue(caught, "eight threads sharing one scratch array went unnoticed five times");
  }

  /** A plugin class that is not registered fails registration, naming the class. */
  @Test
  void anUnregisteredPluginFailsRegistration() {
    CodecContract unregistered = new Subject(XorCodec.Flaw.NONE) {
      @Override
      protected CodecPlugin plugin() {
        return new XorCodec() {};
      }
    };
    AssertionError e = assertThrows(AssertionError.class, unregistered::registration);
    assertTrue(e.getMessage().contains("ServiceLoader does not find"), e.getMessage());
  }
}
