#!/usr/bin/env python3
"""Every example and every cross-core test kernel, compiled for C220 and
C310, run by the executor and then as its emitted C++ (`tilekit run
--compiled`, clang-22 -Wall -Werror) on the same inputs: the outputs must be
equal to the bit, vector math and cube sums alike (both add each element's
products in K order).

    compiled_vs_executor.py TILEKIT EXAMPLES CROSS_CORE WORKDIR

Prints one line per kernel and architecture; exits 1 at the first that
fails, with its command and output.
"""

import os
import subprocess
import sys

import numpy as np

EXACT = ["--atol", "0", "--rtol", "0"]

# name: (entry or None, inputs, output). Ragged shapes where the kernel
# takes them.
EXAMPLES = {
    "softmax": (None, ["x=rand:200x128:f32:1", "y=zeros:200x128:f32"], "y"),
    "rmsnorm": (None, ["x=rand:136x256:f32:1", "gamma=rand:1x256:f32:2",
                       "y=zeros:136x256:f32"], "y"),
    "layernorm": (None, ["x=rand:100x128:f16:1", "gamma=rand:1x128:f32:2",
                         "beta=rand:1x128:f32:3", "y=zeros:100x128:f16"], "y"),
    "gemm": (None, ["a=rand:136x200:f16:1", "b=rand:200x72:f16:2",
                    "c=zeros:136x72:f32"], "c"),
    "mixed_scaled_matmul": (None, ["x=rand:256x64:f32:1",
                                   "w=rand:64x64:f16:2",
                                   "y=zeros:256x64:f32"], "y"),
    "flash_attention": (None, ["q=rand:128x64:f16:1", "kt=rand:64x256:f16:2",
                               "v=rand:256x64:f16:3", "o=zeros:128x64:f32"],
                        "o"),
    "flash_attention_d128": (None, ["q=rand:128x128:f16:1",
                                    "kt=rand:128x256:f16:2",
                                    "v=rand:256x128:f16:3",
                                    "o=zeros:128x128:f32"], "o"),
    "flash_attention_mixed": (None, ["q=rand:128x128:f16:1",
                                     "kt=rand:128x256:f16:2",
                                     "v=rand:256x128:f16:3",
                                     "o=zeros:128x128:f32"], "o"),
}

CROSS_CORE = {
    "up_down": 31, "left_right": 31, "odd_rows": 31, "odd_cols": 31,
    "round_trip": 31, "round_trip_cols": 31, "single": 31,
    "stride_rows": 29, "stride_cols": 15,
}


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0 or "MISMATCH" in result.stdout:
        sys.stdout.write(result.stdout + result.stderr)
        sys.exit("FAILED: " + " ".join(command))
    return result.stdout


def check(tilekit, work, name, kernel, entry, inputs, output):
    options = [word for value in inputs for word in ("--input", value)]
    if entry:
        options += ["--entry", entry]
    for arch in ("c220", "c310"):
        compiled = os.path.join(work, "%s.%s.mlir" % (name, arch))
        expected = os.path.join(work, "%s.%s.npy" % (name, arch))
        run([tilekit, "compile", kernel, "--arch=" + arch, "-o", compiled] +
            (["--entry", entry] if entry else []))
        run([tilekit, "run", compiled, "--output", output + "=" + expected] +
            options)
        out = run([tilekit, "run", compiled, "--compiled", "--expect",
                   output + "=" + expected] + options + EXACT)
        print("%s %s: %s" % (name, arch, out.strip().splitlines()[-1]))


def main():
    tilekit, examples, cross_core, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    for name, (entry, inputs, output) in EXAMPLES.items():
        check(tilekit, work, name, os.path.join(examples, name + ".mlir"),
              entry, inputs, output)
    x = (np.arange(1024).reshape(32, 32) % 509 - 254).astype(np.float16)
    np.save(os.path.join(work, "x.npy"), x)
    np.save(os.path.join(work, "eye.npy"), np.eye(32, dtype=np.float16))
    for name, valid in CROSS_CORE.items():
        inputs = ["x=" + os.path.join(work, "x.npy"),
                  "eye=" + os.path.join(work, "eye.npy"),
                  "y=zeros:32x32:f32", "v=%d" % valid]
        check(tilekit, work, name, cross_core, "run_" + name, inputs, "y")


if __name__ == "__main__":
    main()
