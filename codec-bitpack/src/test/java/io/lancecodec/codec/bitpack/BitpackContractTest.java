package io.lancecodec.codec.bitpack;

import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.testkit.CodecContract;
import io.lancecodec.testkit.Host;
import io.lancecodec.testkit.ValueKind;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The codec contract, standalone: lance-runtime's own tests depend on this module, so there is no
 * registry here; the runtime's 2.3 leaves (Flat, Constant) are {@link Decoders23}'s stand-ins.
 */
class BitpackContractTest extends CodecContract {
  @Override
  protected CodecPlugin plugin() {
    return new BitpackPlugin();
  }

  @Override
  protected Host host() {
    return Host.standalone(List.of(new BitpackPlugin()), Decoders23.INSTANCE);
  }

  @Override
  protected Set<ValueKind> kinds() {
    return EnumSet.of(ValueKind.U8, ValueKind.U16, ValueKind.U32, ValueKind.U64, ValueKind.I32, ValueKind.I64);
  }
}
