package io.lancecodec.codec.alp;

import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.testkit.CodecContract;
import io.lancecodec.testkit.Host;
import io.lancecodec.testkit.ValueKind;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** The codec contract over floats, ALP forced on and left automatic; standalone (ALP has no children). */
class AlpContractTest extends CodecContract {
  @Override
  protected CodecPlugin plugin() {
    return new AlpPlugin();
  }

  @Override
  protected Host host() {
    return Host.standalone(List.of(new AlpPlugin()));
  }

  @Override
  protected Set<ValueKind> kinds() {
    return EnumSet.of(ValueKind.F32, ValueKind.F64);
  }

  @Override
  protected List<FieldOptions> optionSets(FileVersion version, ValueKind kind) {
    return List.of(kind.defaultOptions(), kind.defaultOptions().toBuilder().alp(FieldOptions.Mode.ON).build());
  }
}
