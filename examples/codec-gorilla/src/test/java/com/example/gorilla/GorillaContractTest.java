package com.example.gorilla;

import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.testkit.CodecContract;
import io.lancecodec.testkit.Host;
import io.lancecodec.testkit.ValueKind;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** The contract every codec passes: round trips, honest sizes, hostile input, threads, registration. */
class GorillaContractTest extends CodecContract {
  private static final CodecRegistry REGISTRY = CodecRegistry.discover();

  @Override
  protected CodecPlugin plugin() {
    return new GorillaPlugin();
  }

  @Override
  protected Host host() {
    return Host.of(REGISTRY.decoders(), REGISTRY::proposalContext);
  }

  @Override
  protected Set<ValueKind> kinds() {
    return EnumSet.of(ValueKind.F32, ValueKind.F64);
  }

  /** Gorilla is used only when asked for. */
  @Override
  protected List<FieldOptions> optionSets(FileVersion version, ValueKind kind) {
    return List.of(kind.defaultOptions().toBuilder().compression("gorilla").build());
  }
}
