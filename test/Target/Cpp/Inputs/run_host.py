#!/usr/bin/env python3
"""A kernel's emitted host code and kernels, run on the CPU as a host program.

    run_host.py TILEKIT CLANGXX SRC_ROOT WORKDIR KERNEL.mlir ARCH TOL NAME=VALUE...

Compiles the PTO kernel KERNEL for ARCH to its kernels (`--emit=cpp`) and
their host side (`--emit=host`), writes a main() that does what a host
program does (GmAlloc the GM tensors and the workspace the host code asks
for, fill the tiling struct from the shapes and scalars, call the launch
function), builds all of it with clang-22 and -DASCENDC_CPU_DEBUG against
runtime/ascendc-cpu, runs it and compares every GM tensor with the PTO
kernel's run in the executor (`tilekit run KERNEL`): to the bit when TOL is
"exact", else within "ATOL,RTOL". NAME=FILE.npy is a GM tensor, NAME=NUMBER
a scalar. Prints "NAME: ok" per tensor, the launch's block count, and exits
1 on any difference.
"""

import os
import re
import subprocess
import sys

import numpy as np



def npu_arch(arch):
    """The architecture as the device compiler states it (the stand-in sizes
    the advanced API's scratch by it)."""
    return "-D__NPU_ARCH__=" + ("3510" if arch.startswith("c310") else "2201")

def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        sys.exit("FAILED: " + " ".join(command))
    return result.stdout


def main():
    tilekit, clangxx, src, workdir, kernel, arch, tol = sys.argv[1:8]
    args = dict(arg.split("=", 1) for arg in sys.argv[8:])
    os.makedirs(workdir, exist_ok=True)
    source = os.path.join(workdir, "kernel.cpp")
    host = os.path.join(workdir, "host.h")
    run([tilekit, "compile", kernel, "--arch=" + arch, "--emit=cpp", "-o", source])
    run([tilekit, "compile", kernel, "--arch=" + arch, "--emit=host", "-o", host])

    # The reference: the PTO kernel in the executor.
    tensors = {name: np.load(value) for name, value in args.items()
               if value.endswith(".npy")}
    command = [tilekit, "run", kernel]
    for name, value in args.items():
        command += ["--input", "%s=%s" % (name, value)]
    for name in tensors:
        command += ["--output", "%s=%s" % (name, os.path.join(workdir, name + ".ref.npy"))]
    run(command)

    text = open(host).read()
    launch = re.search(r"inline void (\w+)_launch\(void \*stream, ([^)]*)\)", text)
    prefix, params = launch.group(1), launch.group(2)
    gm = [n for n in re.findall(r"uint8_t \*(\w+)", params) if n != "workspace"]
    fields = re.findall(r"^  (\w+) (\w+);", re.search(
        r"struct %s_tiling \{(.*?)\};" % prefix, text, re.S).group(1), re.M)

    lines = ['#include "host.h"', "#include <algorithm>", "#include <cstdio>",
             "#include <vector>",
             "static void *load(const char *path, size_t bytes) {",
             "  void *data = AscendC::GmAlloc(bytes);",
             "  FILE *f = std::fopen(path, \"rb\");",
             "  if (!f || std::fread(data, 1, bytes, f) != bytes) std::abort();",
             "  std::fclose(f);", "  return data;", "}",
             "int main() {", "  %s_tiling tiling{};" % prefix]
    for ctype, field in fields:
        dim = re.fullmatch(r"(\w+)_dim(\d+)", field)
        if dim and dim.group(1) in tensors:
            value = tensors[dim.group(1)].shape[int(dim.group(2))]
        else:
            value = args[field]
        lines.append("  tiling.%s = (%s)(%s);" % (field, ctype, value))
    call = ["nullptr"]
    for name in gm:
        path = os.path.join(workdir, name + ".bin")
        tensors[name].tofile(path)
        lines.append('  uint8_t *%s = (uint8_t *)load("%s", %d);'
                     % (name, path, tensors[name].nbytes))
        call.append(name)
    call.append("tiling")
    # One block count per launch (a host with phases launches several).
    dims = re.findall(r"constexpr uint32_t (%s_block_dim(?:_\d+)?) =" % prefix,
                      text)
    if "uint8_t *workspace" in params:
        # Scratch of run-time size is sized from the tiling too.
        sized = "const %s_tiling &tiling" % prefix in re.search(
            r"%s_workspace_bytes\(([^)]*)\)" % prefix, text).group(1)
        lines.append("  uint8_t *workspace = (uint8_t *)AscendC::GmAlloc("
                     "%s_workspace_bytes(%s%s));"
                     % (prefix, dims[0] if len(dims) == 1 else
                        "std::max({%s})" % ", ".join(dims),
                        ", tiling" if sized else ""))
        call.append("workspace")
    lines.append("  %s_launch(%s);" % (prefix, ", ".join(call)))
    lines.append("  if (!AscendC::cpu::launchFault().empty()) return 1;")
    for name in gm:
        path = os.path.join(workdir, name + ".out.bin")
        lines.append('  { FILE *f = std::fopen("%s", "wb"); '
                     "std::fwrite(%s, 1, %d, f); std::fclose(f); }"
                     % (path, name, tensors[name].nbytes))
    lines.append('  std::printf("blocks:%s\\n", %s);'
                 % ("".join(" %u" for _ in dims), ", ".join(dims)))
    lines += ["  return 0;", "}"]
    main_cpp = os.path.join(workdir, "main.cpp")
    open(main_cpp, "w").write("\n".join(lines) + "\n")

    binary = os.path.join(workdir, "host")
    run([clangxx, "-std=c++17", "-O2", "-ffp-contract=off", "-Wall", "-Werror",
         "-DASCENDC_CPU_DEBUG", npu_arch(arch), "-I", workdir,
         "-I", os.path.join(src, "runtime", "ascendc-cpu"),
         "-I", os.path.join(src, "include"), source, main_cpp,
         os.path.join(src, "lib", "Support", "VectorMath.cpp"),
         "-lpthread", "-o", binary])
    sys.stdout.write(run([binary]))

    failed = False
    for name in gm:
        got = np.fromfile(os.path.join(workdir, name + ".out.bin"),
                          dtype=tensors[name].dtype).reshape(tensors[name].shape)
        want = np.load(os.path.join(workdir, name + ".ref.npy"))
        if tol == "exact":
            same = np.array_equal(got.view(np.uint8), want.view(np.uint8))
        else:
            atol, rtol = (float(x) for x in tol.split(","))
            same = np.allclose(got.astype(np.float64), want.astype(np.float64),
                               atol=atol, rtol=rtol)
        if same:
            print("%s: ok" % name)
        else:
            diff = np.argwhere(got != want)[0]
            print("%s: DIFFERS at %s: got %r, expected %r"
                  % (name, list(diff), got[tuple(diff)], want[tuple(diff)]))
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
