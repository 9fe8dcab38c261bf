package io.lancecodec.cli;

import static io.lancecodec.cli.MainTest.assertOneLineError;
import static io.lancecodec.cli.MainTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.LanceFileReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CSV input for {@code write}: inference, --csv-types, round trips and one-line errors. */
class CsvInputTest {
  @TempDir
  static Path dir;

  static Path resource(String name) throws IOException {
    Path p = dir.resolve(name);
    if (!Files.exists(p)) {
      try (InputStream in = CsvInputTest.class.getResourceAsStream("/vega/" + name)) {
        Files.copy(in, p);
      }
    }
    return p;
  }

  static Path csv(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text, StandardCharsets.UTF_8);
    return p;
  }

  static Map<String, String> types(Path lance) {
    Map<String, String> types = new LinkedHashMap<>();
    try (LanceFileReader reader = LanceFileReader.open(lance)) {
      for (Field f : reader.schema().getFields()) {
        types.put(f.getName(), TypeNames.of(f));
      }
    }
    return types;
  }

  static List<String> cat(Path lance) {
    MainTest.Result r = run("cat", lance.toString());
    assertEquals(0, r.status(), r.err());
    return r.lines();
  }

  static Path write(Path in, String... options) {
    Path out = dir.resolve(in.getFileName() + "-" + Math.abs(String.join(" ", options).hashCode()) + ".lance");
    String[] args = new String[3 + options.length];
    args[0] = "write";
    args[1] = in.toString();
    args[2] = out.toString();
    System.arraycopy(options, 0, args, 3, options.length);
    MainTest.Result r = run(args);
    assertEquals(0, r.status(), r.err());
    assertEquals("", r.out());
    return out;
  }

  @Test
  void vegaSamplesRoundTripInEveryVersion() throws IOException {
    for (String name : List.of("airports-499.csv", "zipcodes-300.csv", "seattle-weather-hourly-normals-200.csv",
        "birdstrikes-200.csv")) {
      for (String version : List.of("2.1", "2.2", "2.3")) {
        Path lance = write(resource(name), "--version", version);
        long rows = RoundTrip.assertMatchesCsv(lance, resource(name));
        assertTrue(rows >= 200, name + ": " + rows);
      }
    }
  }

  @Test
  void inferredTypesOfTheSamples() throws IOException {
    Map<String, String> zip = types(write(resource("zipcodes-300.csv")));
    assertEquals("utf8", zip.get("zip_code"), "zip codes have leading zeros: 00501 must stay text");
    assertEquals("float64", zip.get("latitude"));
    Map<String, String> hourly = types(write(resource("seattle-weather-hourly-normals-200.csv")));
    assertEquals("timestamp[us]", hourly.get("date"));
    assertEquals("float64", hourly.get("pressure"));
    Map<String, String> birds = types(write(resource("birdstrikes-200.csv")));
    assertEquals("date32", birds.get("Flight Date"));
    assertEquals("int64", birds.get("Cost Total $"));
    assertEquals("utf8", birds.get("Airport Name"));
    Map<String, String> airports = types(write(resource("airports-499.csv")));
    assertEquals("utf8", airports.get("name"));
    List<String> rows = cat(write(resource("airports-499.csv")));
    assertTrue(rows.get(301).contains("\"name\":\"Union County, Troy Shelton\""), rows.get(301));
  }

  @Test
  void everyTypeIsInferredAndEmptyIsNull() throws IOException {
    Path in = csv("types.csv", String.join("\n",
        "b,i,f,d,ts,tz,s,n,lead,huge",
        "true,1,1.5,2024-02-29,2024-02-29T10:00:00,2024-02-29T10:00:00Z,x,,007,99999999999999999999",
        "FALSE,-20,-2e3,1970-01-01,1970-01-01 00:00:00.000001,1970-01-01T01:00:00+01:00,\"a,b\",,1,2",
        ",,,,,,,,,",
        "true,+3,NaN,1969-12-31,1969-12-31T23:59,2000-01-01T00:00:00.5-00:30,\"\"\"q\"\"\",,2,3",
        ""));
    Path lance = write(in);
    assertEquals(Map.of("b", "bool", "i", "int64", "f", "float64", "d", "date32", "ts", "timestamp[us]",
        "tz", "timestamp[us, UTC]", "s", "utf8", "n", "utf8", "lead", "utf8", "huge", "utf8"), types(lance));
    assertEquals(List.of(
        "{\"b\":true,\"i\":1,\"f\":1.5,\"d\":19782,\"ts\":1709200800000000,\"tz\":1709200800000000,\"s\":\"x\",\"n\":null,"
            + "\"lead\":\"007\",\"huge\":\"99999999999999999999\"}",
        "{\"b\":false,\"i\":-20,\"f\":-2000.0,\"d\":0,\"ts\":1,\"tz\":0,\"s\":\"a,b\",\"n\":null,\"lead\":\"1\",\"huge\":\"2\"}",
        "{\"b\":null,\"i\":null,\"f\":null,\"d\":null,\"ts\":null,\"tz\":null,\"s\":null,\"n\":null,\"lead\":null,\"huge\":null}",
        "{\"b\":true,\"i\":3,\"f\":\"NaN\",\"d\":-1,\"ts\":-60000000,\"tz\":946686600500000,\"s\":\"\\\"q\\\"\",\"n\":null,"
            + "\"lead\":\"2\",\"huge\":\"3\"}"), cat(lance));
  }

  @Test
  void csvTypesOverrideInference() throws IOException {
    Path in = csv("override.csv", "zip,when,amount\n00501,2024-01-02,10\n10001,2024-01-03,11\n");
    Path lance = write(in, "--csv-types", "zip:int64,amount:float64,when:utf8");
    assertEquals(Map.of("zip", "int64", "when", "utf8", "amount", "float64"), types(lance));
    assertEquals(List.of("{\"zip\":501,\"when\":\"2024-01-02\",\"amount\":10.0}",
        "{\"zip\":10001,\"when\":\"2024-01-03\",\"amount\":11.0}"), cat(lance));
    // a name with a colon: the type follows the last one
    Path colon = csv("colon.csv", "a:b,c\n1,2\n");
    assertEquals(Map.of("a:b", "utf8", "c", "int64"), types(write(colon, "--csv-types", "a:b:utf8")));
  }

  @Test
  void aLaterValueThatDoesNotFitFailsNamingRowColumnAndValue() throws IOException {
    StringBuilder sb = new StringBuilder("id,code\n");
    for (int i = 1; i <= 50; i++) {
      sb.append(i).append(',').append(i * 3).append('\n');
    }
    sb.append("51,12A\n");
    Path in = csv("late.csv", sb.toString());
    Path out = dir.resolve("late.lance");
    assertOneLineError(1, "late.csv: row 51, column 'code': '12A' is not a valid int64 (the type was inferred from the first 20 rows",
        "write", in.toString(), out.toString(), "--csv-infer-rows", "20");
    assertFalse(Files.exists(out), "no partial file");
    assertEquals("utf8", types(write(in, "--csv-infer-rows", "all")).get("code"));
    assertEquals("utf8", types(write(in)).get("code"), "the default sample (10,000 rows) holds the whole file");
  }

  @Test
  void badValueUnderCsvTypes() throws IOException {
    Path in = csv("counts.csv", "name,count\na,1\nb,two\n");
    assertOneLineError(1, "counts.csv: row 2, column 'count': 'two' is not a valid int64 (the type was given with --csv-types)",
        "write", in.toString(), dir.resolve("counts.lance").toString(), "--csv-types", "count:int64");
    Path dates = csv("dates.csv", "d\n2024-02-30\n");
    assertOneLineError(1, "row 1, column 'd': '2024-02-30' is not a valid date", "write", dates.toString(),
        dir.resolve("dates.lance").toString(), "--csv-types", "d:date");
  }

  @Test
  void raggedAndMalformedCsvIsOneLine() throws IOException {
    Path ragged = csv("ragged.csv", "a,b\n1,2\n3\n");
    assertOneLineError(1, "ragged.csv: row 2 has 1 fields, the header has 2", "write", ragged.toString(),
        dir.resolve("r.lance").toString());
    Path longer = csv("longer.csv", "a,b\n1,2,3\n");
    assertOneLineError(1, "longer.csv: row 1 has 3 fields, the header has 2", "write", longer.toString(),
        dir.resolve("r.lance").toString(), "--csv-types", "a:int64,b:int64");
    Path quote = csv("quote.csv", "a,b\n1,\"x\"y\n");
    assertOneLineError(1, "quote.csv: row 1: malformed CSV", "write", quote.toString(), dir.resolve("q.lance").toString());
    Path latin1 = dir.resolve("latin1.csv");
    Files.write(latin1, "name\ncaf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
    assertOneLineError(1, "latin1.csv: not valid UTF-8", "write", latin1.toString(), dir.resolve("l.lance").toString());
    Path empty = csv("empty.csv", "");
    assertOneLineError(1, "empty.csv: empty file, no CSV header row", "write", empty.toString(), dir.resolve("e.lance").toString());
    Path dup = csv("dup.csv", "a,b,a\n1,2,3\n");
    assertOneLineError(1, "dup.csv: the header names column 'a' twice", "write", dup.toString(), dir.resolve("d.lance").toString());
    Path unnamed = csv("unnamed.csv", ",b\n1,2\n");
    assertOneLineError(1, "unnamed.csv: the header's column 1 has no name", "write", unnamed.toString(),
        dir.resolve("u.lance").toString());
    Path dotted = csv("dotted.csv", "a.b\n1\n");
    assertOneLineError(1, "contains '.'", "write", dotted.toString(), dir.resolve("dot.lance").toString());
  }

  @Test
  void optionErrors() throws IOException {
    Path in = csv("opts.csv", "a,b\n1,2\n");
    String out = dir.resolve("o.lance").toString();
    assertOneLineError(2, "bad --csv-types item 'a:number': unknown type 'number' (types: bool, int64, float64, date, timestamp, "
        + "timestamptz, utf8)", "write", in.toString(), out, "--csv-types", "a:number");
    assertOneLineError(2, "bad --csv-types item 'a': expected COLUMN:TYPE", "write", in.toString(), out, "--csv-types", "a");
    assertOneLineError(2, "column 'a' given twice", "write", in.toString(), out, "--csv-types", "a:utf8,a:int64");
    assertOneLineError(2, "bad --csv-infer-rows 'none'", "write", in.toString(), out, "--csv-infer-rows", "none");
    assertOneLineError(2, "bad --csv-infer-rows '0'", "write", in.toString(), out, "--csv-infer-rows", "0");
    assertOneLineError(1, "opts.csv: --csv-types names column 'c', which is not in the header (columns: a, b)",
        "write", in.toString(), out, "--csv-types", "c:utf8");
    Path arrow = csv("not-csv.arrow", "the CSV options are refused before the input is read");
    assertOneLineError(2, "apply to CSV input", "write", arrow.toString(), out, "--csv-infer-rows", "5");
  }

  @Test
  void headerOnlyBomAndBlankLines() throws IOException {
    Path header = csv("header-only.csv", "a,b\n");
    Path lance = write(header);
    assertEquals(Map.of("a", "utf8", "b", "utf8"), types(lance));
    assertEquals(List.of(), cat(lance));

    Path bom = csv("bom.csv", "\uFEFFx,y\r\n1,2\r\n\r\n3,4\r\n");
    assertEquals(List.of("{\"x\":1,\"y\":2}", "{\"x\":3,\"y\":4}"), cat(write(bom)), "BOM dropped, CRLF read, blank line skipped");

    Path single = csv("single.csv", "v\n1\n\n3\n");
    assertEquals(List.of("{\"v\":1}", "{\"v\":null}", "{\"v\":3}"), cat(write(single)), "one column: a blank line is a null");
  }

  @Test
  void batchesOfManyRows() throws IOException {
    StringBuilder sb = new StringBuilder("n,s\n");
    int rows = RowSource.BATCH_ROWS * 2 + 17;
    for (int i = 0; i < rows; i++) {
      sb.append(i).append(',').append(i % 3 == 0 ? "" : "v" + i).append('\n');
    }
    Path in = csv("many.csv", sb.toString());
    Path lance = write(in, "--version", "2.3");
    assertEquals(rows, RoundTrip.assertMatchesCsv(lance, in));
    try (BufferAllocator allocator = new RootAllocator();
        CsvSource source = CsvSource.open(in, CsvSource.Options.parse(null, null), allocator)) {
      assertTrue(source.loadNextBatch());
      assertEquals(RowSource.BATCH_ROWS, source.root().getRowCount());
      assertTrue(source.fractionRead() > 0 && source.fractionRead() <= 1, "" + source.fractionRead());
    }
  }

  @Test
  void writeHelpDescribesTheInputs() {
    MainTest.Result r = run("write", "--help");
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().startsWith("usage: lance-codec write IN OUT [--version 2.1|2.2|2.3] [--csv-types COL:TYPE,...]"), r.out());
    assertTrue(r.out().contains("a Parquet") && r.out().contains("a CSV file with a header (.csv)"), r.out());
    assertTrue(r.out().contains("--csv-types sets some or all types"), r.out());
    assertEquals("", r.err());
  }

  @Test
  void inferenceRules() {
    assertTrue(CsvType.INT64.infers("-12"));
    assertFalse(CsvType.INT64.infers("012"), "leading zero");
    assertFalse(CsvType.FLOAT64.infers("012"), "an integer INT64 refused is not a float either");
    assertTrue(CsvType.INT64.infers("0"));
    assertFalse(CsvType.INT64.infers("9223372036854775808"));
    assertFalse(CsvType.FLOAT64.infers("9223372036854775808"));
    assertTrue(CsvType.FLOAT64.infers("0.5"));
    assertTrue(CsvType.FLOAT64.infers("-.5e-3"));
    assertTrue(CsvType.FLOAT64.infers("inf"));
    assertFalse(CsvType.FLOAT64.infers("1.5f"), "Java's type suffixes are not CSV numbers");
    assertFalse(CsvType.FLOAT64.infers("0x1p3"));
    assertFalse(CsvType.FLOAT64.infers(" 1.5"), "no trimming");
    assertFalse(CsvType.FLOAT64.infers("1,5"));
    assertTrue(CsvType.BOOL.infers("True"));
    assertFalse(CsvType.BOOL.infers("1"));
    assertTrue(CsvType.DATE.infers("2000-02-29"));
    assertFalse(CsvType.DATE.infers("2001-02-29"));
    assertFalse(CsvType.DATE.infers("Jan 1 2000"));
    assertFalse(CsvType.TIMESTAMP.infers("2000-01-01T00:00:00Z"), "a zone makes it timestamptz");
    assertFalse(CsvType.TIMESTAMP.infers("2000-01-01T00:00:00.0000001"), "below a microsecond");
    assertTrue(CsvType.TIMESTAMPTZ.infers("2000-01-01 00:00:00+05:30"));
    assertNull(CsvType.parse("text"));
    assertEquals(CsvType.UTF8, CsvType.parse(" UTF8 "));
  }
}
