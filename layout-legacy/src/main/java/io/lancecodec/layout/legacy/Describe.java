package io.lancecodec.layout.legacy;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.Flat;
import io.lancecodec.format.pb.v21.InlineBitpacking;
import io.lancecodec.format.pb.v21.OutOfLineBitpacking;

/** Renders a compression tree compactly, e.g. {@code rle(flat(32), flat(8))}, for inspect. */
final class Describe {
  private Describe() {}

  static String encoding(CompressiveEncoding e) {
    if (e.getCompressionCase() == CompressiveEncoding.CompressionCase.COMPRESSION_NOT_SET) {
      return "?";
    }
    FieldDescriptor f = e.getOneofFieldDescriptor(e.getDescriptorForType().getOneofs().get(0));
    Message node = (Message) e.getField(f);
    StringBuilder sb = new StringBuilder(f.getName());
    if (node instanceof Flat flat) {
      return "flat(" + flat.getBitsPerValue() + ")";
    }
    if (node instanceof InlineBitpacking ib) {
      return "bitpack(" + ib.getUncompressedBitsPerValue() + ")";
    }
    if (node instanceof OutOfLineBitpacking ob) {
      return "bitpack-ool(" + ob.getUncompressedBitsPerValue() + " -> " + encoding(ob.getValues()) + ")";
    }
    if (node instanceof io.lancecodec.format.pb.v21.FixedSizeList fsl) {
      return "fixed_size_list[" + fsl.getItemsPerValue() + (fsl.getHasValidity() ? ", item validity" : "") + "]("
          + encoding(fsl.getValues()) + ")";
    }
    if (node instanceof io.lancecodec.format.pb.v21.VariablePackedStruct vps) {
      StringBuilder fields = new StringBuilder("variable_packed_struct(");
      for (int i = 0; i < vps.getFieldsCount(); i++) {
        fields.append(i == 0 ? "" : ", ").append(encoding(vps.getFields(i).getValue()));
      }
      return fields.append(')').toString();
    }
    String sep = "(";
    for (FieldDescriptor child : node.getDescriptorForType().getFields()) {
      if (child.getJavaType() == FieldDescriptor.JavaType.MESSAGE
          && child.getMessageType().getFullName().equals(CompressiveEncoding.getDescriptor().getFullName())
          && !child.isRepeated()
          && node.hasField(child)) {
        sb.append(sep).append(encoding((CompressiveEncoding) node.getField(child)));
        sep = ", ";
      }
    }
    if (!sep.equals("(")) {
      sb.append(')');
    }
    return sb.toString();
  }
}
