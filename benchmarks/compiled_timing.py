#!/usr/bin/python3
"""The compiled kernel's time beside the PTO program's ideal schedule, for
each example and architecture: the table of docs/timing-model.md.

    benchmarks/compiled_timing.py [BUILD_DIR]

Runs `tilekit sim --arch=A KERNEL --json` (the 910B's config for c220, the
950's for c310) at the shapes below, and again with `--double-buffer` for
the kernels whose loops load tiles (DOUBLE_BUFFERED: the same rule in the
ideal schedule and the compiled kernel), and prints a Markdown table: ideal and
compiled cycles, the difference, the cycles synchronization held pipes (all
cores summed, by kind), the bound and what the pipes waited on most. The
model is deterministic: a rerun prints the same table.
"""
import json
import os
import subprocess
import sys

EXAMPLES = {
    "softmax": ["x=rand:4096x128:f32:1", "y=zeros:4096x128:f32"],
    "rmsnorm": ["x=rand:2048x256:f32:1", "gamma=rand:1x256:f32:2",
                "y=zeros:2048x256:f32"],
    "layernorm": ["x=rand:2048x128:f16:1", "gamma=rand:1x128:f32:2",
                  "beta=rand:1x128:f32:3", "y=zeros:2048x128:f16"],
    "gemm": ["a=rand:1024x1024:f16:1", "b=rand:1024x1024:f16:2",
             "c=zeros:1024x1024:f32"],
    "mixed_scaled_matmul": ["x=rand:4096x64:f32:1", "w=rand:64x64:f16:2",
                            "y=zeros:4096x64:f32"],
    "flash_attention": ["q=rand:1024x64:f16:1", "kt=rand:64x1024:f16:2",
                        "v=rand:1024x64:f16:3", "o=zeros:1024x64:f32"],
    "flash_attention_d128": ["q=rand:1024x128:f16:1", "kt=rand:128x1024:f16:2",
                             "v=rand:1024x128:f16:3", "o=zeros:1024x128:f32"],
    "flash_attention_mixed": ["q=rand:1024x128:f16:1",
                              "kt=rand:128x1024:f16:2",
                              "v=rand:1024x128:f16:3", "o=zeros:1024x128:f32"],
    "flash_attention_fast": ["q=rand:1024x128:f16:1",
                             "kt=rand:128x1024:f16:2",
                             "v=rand:1024x128:f16:3", "o=zeros:1024x128:f32"],
}

# Kernels timed a second time with --double-buffer.
DOUBLE_BUFFERED = ["gemm"]

SHORT = {"flags": "flags", "cross-core flags": "cross", "buffer ids": "bufid",
         "barriers": "barrier"}


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    tilekit = os.path.join(build, "bin", "tilekit")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    print("| example | shape | arch | ideal | compiled | +% | sync held "
          "(flags / cross / bufid / barrier) | bound | waits most on |")
    print("|---|---|---|---:|---:|---:|---|---|---|")
    runs = [(name, inputs, []) for name, inputs in EXAMPLES.items()]
    runs += [(name, EXAMPLES[name], ["--double-buffer"])
             for name in DOUBLE_BUFFERED]
    for name, inputs, options in runs:
        for arch in ["c220", "c310"]:
            command = [tilekit, "sim", "--arch=" + arch,
                       os.path.join(root, "examples", name + ".mlir"),
                       "--json"] + options
            for spec in inputs:
                command += ["--input", spec]
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit("failed: %s\n%s" % (" ".join(command), done.stderr))
            report = json.loads(done.stdout)
            ideal, cycles = report["ideal_cycles"], report["cycles"]
            sync = " / ".join(str(report["sync"][kind]["cycles"])
                              for kind in SHORT)
            waits = sorted(report["waits_on"].items(), key=lambda kv: -kv[1])
            top = "%s (%d)" % waits[0] if waits and waits[0][1] else "-"
            shape = inputs[0].split(":")[1]
            print("| %s | %s | %s | %d | %d | %+.1f | %s | %s | %s |" % (
                " ".join([name] + options), shape, arch, ideal, cycles,
                100.0 * (cycles - ideal) / ideal, sync, report["bound"], top))


if __name__ == "__main__":
    main()
