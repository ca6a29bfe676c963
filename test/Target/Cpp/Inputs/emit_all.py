#!/usr/bin/env python3
"""Every given PTO kernel through `tilekit compile --emit=cpp`, both
architectures (and C220 with --lower-to-l0), each C++ file compiled with
clang-22 against runtime/ascendc-cpu's declarations of the API.

    emit_all.py TILEKIT CLANGXX SRC_ROOT WORKDIR KERNEL...

A kernel file may hold a placeholder: NAME:WORD=VALUE substitutes VALUE
for WORD first (Inputs/slots.mlir:SLOTS=3). Exits 1 naming the first
kernel whose C++ is not emitted or does not compile.
"""

import os
import subprocess
import sys


def main():
    tilekit, clangxx, src, workdir = sys.argv[1:5]
    os.makedirs(workdir, exist_ok=True)
    count = 0
    for spec in sys.argv[5:]:
        path, _, substitution = spec.partition(":")
        text = open(path).read()
        if substitution:
            word, _, value = substitution.partition("=")
            text = text.replace(word, value)
        name = os.path.splitext(os.path.basename(path))[0]
        source = os.path.join(workdir, name + ".mlir")
        with open(source, "w") as f:
            f.write(text)
        for flags in (["--arch=c220"], ["--arch=c310"],
                      ["--arch=c220", "--lower-to-l0"]):
            cpp = os.path.join(workdir, "%s-%s.cpp" % (name, "-".join(
                flag.lstrip("-").replace("=", "") for flag in flags)))
            steps = [[tilekit, "compile", source, "--emit=cpp", "-o", cpp] + flags,
                     [clangxx, "-fsyntax-only", "-std=c++17", "-Wall", "-Werror",
                      "-I", os.path.join(src, "runtime", "ascendc-cpu"),
                      "-I", os.path.join(src, "include"), cpp]]
            for command in steps:
                result = subprocess.run(command, capture_output=True, text=True)
                if result.returncode != 0:
                    sys.stderr.write(result.stderr)
                    sys.exit("FAILED: " + " ".join(command))
            count += 1
    print("%d kernels emitted and compiled" % count)


if __name__ == "__main__":
    main()
