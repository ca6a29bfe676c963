#!/usr/bin/env python3
"""A kernel's emitted C++ run on the CPU against the executor.

    run_emitted.py TILEKIT CLANGXX SRC_ROOT WORKDIR KERNEL.mlir ARCH[,l0] NAME=VALUE...

Compiles KERNEL for ARCH (`tilekit compile`, then `--emit=cpp`), runs the
compiled AscendC kernel in the executor (`tilekit run`) and the emitted C++
built with clang-22 against runtime/ascendc-cpu (`,l0`: with the vector
ops lowered to level 0, --lower-to-l0), on the same inputs: each
NAME=FILE.npy is a GM tensor, NAME=NUMBER a scalar, in the kernel's argument
order. Prints one line per GM tensor: "NAME: same bits" when every element
of the C++ run equals the executor's to the bit, else the first difference,
and exits 1 on any difference. The kernel must be one vector-core kernel
with static shapes; it runs in AscendC::cpu::runBlock, as `tilekit run
--compiled` runs kernels, but from a main() of its own.
"""

import os
import re
import subprocess
import sys

import numpy as np

CTYPES = {np.dtype("float32"): "float", np.dtype("float16"): "half",
          np.dtype("int32"): "int32_t", np.dtype("int16"): "int16_t",
          np.dtype("int8"): "int8_t", np.dtype("uint8"): "uint8_t"}



def npu_arch(arch):
    """The architecture as the device compiler states it (the stand-in sizes
    the advanced API's scratch by it)."""
    return "-D__NPU_ARCH__=" + ("3510" if arch.startswith("c310") else "2201")

def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        sys.exit("FAILED: " + " ".join(command))
    return result.stdout


def main():
    tilekit, clangxx, src, workdir, kernel, arch = sys.argv[1:7]
    args = [arg.split("=", 1) for arg in sys.argv[7:]]
    os.makedirs(workdir, exist_ok=True)
    compiled = os.path.join(workdir, "compiled.mlir")
    source = os.path.join(workdir, "kernel.cpp")
    arch, _, level = arch.partition(",")
    flags = ["--arch=" + arch] + (["--lower-to-l0"] if level == "l0" else [])
    run([tilekit, "compile", kernel, "-o", compiled] + flags)
    run([tilekit, "compile", kernel, "--emit=cpp", "-o", source] + flags)

    # The executor's outputs.
    tensors = [(name, value) for name, value in args if value.endswith(".npy")]
    command = [tilekit, "run", compiled]
    for name, value in args:
        command += ["--input", "%s=%s" % (name, value)]
    for name, _ in tensors:
        command += ["--output", "%s=%s" % (name, os.path.join(workdir, name + ".exec.npy"))]
    run(command)

    # The emitted kernel, called with the same arguments.
    signature = re.search(r'extern "C" __global__ __aicore__ void (\w+)\(([^)]*)\)',
                          open(source).read())
    name, params = signature.group(1), [p.strip() for p in signature.group(2).split(",")]
    if len(params) != len(args):
        sys.exit("FAILED: %s takes %d arguments, given %d (dynamic extents and "
                 "workspaces are not supported here)" % (name, len(params), len(args)))
    lines = ['#include "kernel_operator.h"', "#include <cstdio>", "#include <vector>",
             'extern "C" void %s(%s);' % (name, ", ".join(p.rsplit(" ", 1)[0] for p in params)),
             "static std::vector<char> load(const char *path) {",
             "  std::vector<char> bytes; FILE *f = std::fopen(path, \"rb\"); int c;",
             "  while ((c = std::fgetc(f)) != EOF) bytes.push_back(char(c));",
             "  std::fclose(f); return bytes; }",
             "int main() {"]
    call = []
    for index, (arg, value) in enumerate(args):
        if value.endswith(".npy"):
            data = np.load(value)
            raw = os.path.join(workdir, arg + ".in.bin")
            data.tofile(raw)
            lines.append('  std::vector<char> b%d = load("%s");' % (index, raw))
            call.append("(GM_ADDR)b%d.data()" % index)
        else:
            call.append("(%s)%s" % (params[index].rsplit(" ", 1)[0], value))
    # One vector core, its instructions checked by the runtime's race model.
    lines.append("  char error[2048];")
    lines.append("  if (!AscendC::cpu::runBlock(AscendC::cpu::Cores::Vector, 0, 1, {}, [&] { %s(%s); }, nullptr, error, sizeof error)) {"
                 % (name, ", ".join(call)))
    lines.append('    std::fprintf(stderr, "%s\\n", error); return 1; }')
    for index, (arg, value) in enumerate(args):
        if value.endswith(".npy"):
            out = os.path.join(workdir, arg + ".cpp.bin")
            lines.append('  { FILE *f = std::fopen("%s", "wb"); std::fwrite(b%d.data(), 1, b%d.size(), f); std::fclose(f); }'
                         % (out, index, index))
    lines.append("  return 0;\n}")
    main_cpp = os.path.join(workdir, "main.cpp")
    with open(main_cpp, "w") as f:
        f.write("\n".join(lines) + "\n")
    binary = os.path.join(workdir, "kernel")
    run([clangxx, "-std=c++17", "-O2", "-ffp-contract=off", "-Wall", "-Werror", npu_arch(arch),
         "-I", os.path.join(src, "runtime", "ascendc-cpu"), "-I", os.path.join(src, "include"),
         source, main_cpp, os.path.join(src, "lib", "Support", "VectorMath.cpp"), "-o", binary])
    run([binary])

    failed = False
    for arg, value in tensors:
        expected = np.load(os.path.join(workdir, arg + ".exec.npy"))
        got = np.fromfile(os.path.join(workdir, arg + ".cpp.bin"),
                          dtype=expected.dtype).reshape(expected.shape)
        bits = {2: np.uint16, 4: np.uint32, 1: np.uint8}[expected.dtype.itemsize]
        differ = np.flatnonzero(expected.view(bits).ravel() != got.view(bits).ravel())
        if differ.size == 0:
            print("%s: same bits" % arg)
            continue
        failed = True
        first = differ[0]
        print("%s: %d elements differ; first at %d: executor %r, C++ %r"
              % (arg, differ.size, first, expected.ravel()[first], got.ravel()[first]))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
