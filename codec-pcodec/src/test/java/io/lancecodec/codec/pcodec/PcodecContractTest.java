package io.lancecodec.codec.pcodec;

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

/** The codec contract over floats under {@code compression=pcodec}, at the default and the extreme levels. */
class PcodecContractTest extends CodecContract {
  private static final CodecRegistry REGISTRY = CodecRegistry.discover();

  @Override
  protected CodecPlugin plugin() {
    return new PcodecPlugin();
  }

  @Override
  protected Host host() {
    return Host.of(REGISTRY.decoders(), REGISTRY::proposalContext);
  }

  @Override
  protected Set<ValueKind> kinds() {
    return EnumSet.of(ValueKind.F32, ValueKind.F64);
  }

  @Override
  protected List<FieldOptions> optionSets(FileVersion version, ValueKind kind) {
    FieldOptions pcodec = kind.defaultOptions().toBuilder().compression("pcodec").chunkedCompression(true).build();
    return List.of(pcodec, pcodec.toBuilder().compressionLevel(0).build(), pcodec.toBuilder().compressionLevel(12).build());
  }
}
