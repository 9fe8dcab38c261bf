package io.lancecodec.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.cli.MainTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench}: argument checks, and the delegation to {@code bench/compare.sh} of the source
 * tree (here a stand-in script under {@code -Dlance.codec.root}, so no benchmark runs). The real
 * {@code bench --quick} runs in CI ({@code .ci/run}).
 */
class BenchTest {
  @TempDir
  Path tmp;

  Path root;

  @BeforeEach
  void fakeTree() throws Exception {
    root = tmp.resolve("tree");
    Files.createDirectories(root.resolve("bench"));
    Files.writeString(root.resolve("bench/compare.sh"), String.join("\n",
        "echo \"building...\" >&2",
        "echo \"ARGS: $*\"",
        "case \" $* \" in *' boom '*) echo 'lance-codec bench: no codec plugin named boom' >&2; exit 2;; esac",
        "exit 0", ""));
    System.setProperty("lance.codec.root", root.toString());
  }

  @AfterEach
  void clear() {
    System.clearProperty("lance.codec.root");
  }

  @Test
  void delegatesToTheBenchModuleAndPassesOutputThrough() throws Exception {
    Path out = tmp.resolve("results");
    Result r = MainTest.run("bench", "--quick", "--out", out.toString(), "--reps", "2", "--only", "token-lines|vectors");
    assertEquals(0, r.status(), r.err());
    assertEquals("ARGS: --quick --out " + out.toAbsolutePath() + " --reps 2 --only token-lines|vectors\n", r.out());
    assertEquals("building...\n", r.err());
  }

  @Test
  void leaderboardArgumentsAndTheChildsStatus() throws Exception {
    Path data = Files.writeString(tmp.resolve("x.csv"), "a\n1\n");
    Result r = MainTest.run("bench", "--codec", "bitpack", "--data", data.toString(), "--column", "a");
    assertEquals(0, r.status(), r.err());
    assertEquals("ARGS: --codec bitpack --data " + data.toAbsolutePath() + " --column a\n", r.out());
    r = MainTest.run("bench", "--codec", "boom");
    assertEquals(2, r.status());
    assertTrue(r.err().endsWith("lance-codec bench: no codec plugin named boom\n"), r.err());
  }

  @Test
  void badArgumentsAreOneLineErrors() throws Exception {
    MainTest.assertOneLineError(2, "--column needs --codec", "bench", "--column", "x");
    MainTest.assertOneLineError(2, "--options needs --codec", "bench", "--options", "compression=zstd");
    MainTest.assertOneLineError(2, "--reps must be a positive integer", "bench", "--reps", "0");
    MainTest.assertOneLineError(2, "--only needs a regular expression", "bench", "--only", "(");
    MainTest.assertOneLineError(2, "--only does not apply to --codec", "bench", "--codec", "bitpack", "--only", "x");
    MainTest.assertOneLineError(2, "unknown option '--bogus'", "bench", "--bogus");
    MainTest.assertOneLineError(2, "unexpected argument", "bench", "extra");
    MainTest.assertOneLineError(2, "--reps does not apply to --codec", "bench", "--codec", "bitpack", "--reps", "3");
    MainTest.assertOneLineError(2, "--column needs --data", "bench", "--codec", "bitpack", "--column", "x");
    MainTest.assertOneLineError(1, "no such directory", "bench", "--data", tmp.resolve("nope").toString());
    MainTest.assertOneLineError(1, "no such file", "bench", "--codec", "bitpack", "--data", tmp.resolve("nope.csv").toString());
  }

  @Test
  void needsTheSourceTree() {
    System.setProperty("lance.codec.root", tmp.resolve("empty").toString());
    MainTest.assertOneLineError(1, "bench needs the lance-codec source tree", "bench", "--quick");
  }

  @Test
  void helpShowsBench() {
    Result r = MainTest.run("help", "bench");
    assertEquals(0, r.status());
    assertTrue(r.out().startsWith("usage: lance-codec bench [--quick]"), r.out());
    r = MainTest.run("--help");
    assertTrue(r.out().contains("bench --codec NAME"), r.out());
    assertFalse(MainTest.run("nosuch").err().isEmpty());
  }
}
