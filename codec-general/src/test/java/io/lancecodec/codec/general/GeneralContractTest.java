package io.lancecodec.codec.general;

import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.testkit.CodecContract;
import io.lancecodec.testkit.Host;
import io.lancecodec.testkit.ValueKind;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** The codec contract under every scheme the plugin implements (and byte-stream split asked for). */
class GeneralContractTest extends CodecContract {
  private static final CodecRegistry REGISTRY = CodecRegistry.discover();

  @Override
  protected CodecPlugin plugin() {
    return new GeneralPlugin();
  }

  @Override
  protected Host host() {
    return Host.of(REGISTRY.decoders(), REGISTRY::proposalContext);
  }

  @Override
  protected Set<ValueKind> kinds() {
    return EnumSet.of(ValueKind.U32, ValueKind.I64, ValueKind.F32, ValueKind.F64, ValueKind.STRING);
  }

  @Override
  protected List<FieldOptions> optionSets(FileVersion version, ValueKind kind) {
    List<FieldOptions> out = new ArrayList<>();
    for (Scheme s : Scheme.values()) {
      out.add(kind.defaultOptions().toBuilder().compression(s.option()).build());
    }
    if (kind.isFloat()) {
      out.add(kind.defaultOptions().toBuilder().compression("zstd").bss(FieldOptions.Mode.ON).build());
    }
    return out;
  }
}
