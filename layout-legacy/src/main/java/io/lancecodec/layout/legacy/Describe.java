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
