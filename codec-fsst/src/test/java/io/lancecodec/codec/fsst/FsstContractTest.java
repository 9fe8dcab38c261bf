package io.lancecodec.codec.fsst;

import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.testkit.CodecContract;
import io.lancecodec.testkit.Host;
import io.lancecodec.testkit.ValueKind;
import java.util.Set;

/** The codec contract over strings, with the runtime's registry composing FSST's inner offers. */
class FsstContractTest extends CodecContract {
  private static final CodecRegistry REGISTRY = CodecRegistry.discover();

  @Override
  protected CodecPlugin plugin() {
    return new FsstPlugin();
  }

  @Override
  protected Host host() {
    return Host.of(REGISTRY.decoders(), REGISTRY::proposalContext);
  }

  @Override
  protected Set<ValueKind> kinds() {
    return Set.of(ValueKind.STRING);
  }

  /** FSST estimates from the symbols' gain on a 16 KiB sample: within 15% of the page. */
  @Override
  protected double proposalTolerance() {
    return 0.15;
  }
}
