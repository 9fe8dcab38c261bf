#!/usr/bin/env python3
"""Disassembles a C2-compiled method when HotSpot has no hsdis plugin.

Without hsdis, -XX:+PrintAssembly prints each nmethod's machine code as hex words ("abstract
disassembly"). This turns the last C2 nmethod in such a log back into bytes and runs objdump on
them, so a kernel's instructions can be read (register spills, bounds checks per access).

    java -XX:+UnlockDiagnosticVMOptions \\
         -XX:CompileCommand=print,io.lancecodec.codec.fsst.FsstDecoder::decodeWindow ... > jit.log
    bench/tools/jit-disasm.py jit.log [N]     # N: which C2 nmethod, counted from the last (1)

Needs objdump (binutils). Only the main code section is decoded; stubs are left out.
"""
import re
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    text = open(sys.argv[1], errors="replace").read()
    which = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    methods = text.split("C2-compiled nmethod")[1:]
    if len(methods) < which:
        sys.exit(f"{sys.argv[1]}: {len(methods)} C2 nmethod(s), asked for number {which} from the end")
    method = methods[-which]
    header = re.search(r"Compiled method \(c2\).*", method)
    if "[MachCode]" not in method:
        sys.exit("no [MachCode] section: was the log written with -XX:+PrintAssembly or CompileCommand=print?")
    code = re.split(r"\[Stub Code\]|\[Exception Handler\]|\[/MachCode\]", method.split("[MachCode]")[1])[0]
    start = None
    data = bytearray()
    for line in code.splitlines():
        m = re.match(r"\s*(0x[0-9a-f]+): ((?:[0-9a-f]{2,8}\s*\|?\s*)+)$", line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        if start is None:
            start = addr
        gap = addr - start - len(data)
        if gap < 0:
            sys.exit(f"overlapping code at {addr:#x}")
        data += b"\x90" * gap  # comment lines between words are not code; keep addresses true
        data += bytes.fromhex(re.sub(r"[\s|]", "", m.group(2)))
    if start is None:
        sys.exit("no hex code found (hsdis may be loaded after all: the log already has instructions)")
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        f.write(data)
        f.flush()
        out = subprocess.run(
            ["objdump", "-D", "-b", "binary", "-mi386:x86-64", f"--adjust-vma={start:#x}", f.name],
            capture_output=True, text=True, check=True).stdout
    if header:
        print("#", header.group(0).strip())
    print(out.split("<.data>:", 1)[-1])


if __name__ == "__main__":
    main()
