#!/usr/bin/env bash
# The example's JMH benchmark: builds the test classes (benchmarks live beside the tests) and runs
# JMH with the test class path. Extra arguments go to JMH, e.g. `./run-benchmark.sh -p family=CORPUS`.
set -euo pipefail
cd "$(dirname "$0")"
mvn -q -B test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
java -cp "target/classes:target/test-classes:$(cat target/test-classpath.txt)" org.openjdk.jmh.Main 'com.example.gorilla.GorillaBenchmark' "$@"
