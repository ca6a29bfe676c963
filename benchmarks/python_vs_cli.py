#!/usr/bin/python3
"""tilekit.run and tilekit.sim from Python next to the commands, interleaved.

    /usr/bin/python3 benchmarks/python_vs_cli.py [BUILD_DIR] [--repeat N]

For softmax at 4096 x 128 f32 and GEMM at 256 x 256 x 256 f16, each round in
turn times: `tilekit run` as a whole process reading .npy inputs and writing
the output (what a shell user pays), and `tilekit.run(...)` called in this
process on NumPy arrays (parse, verify, bind, execute, return the arrays:
what a Python user pays per call). Prints min and median of each and checks
that both give the same bits. Then the same for timing GEMM at 4096^3 with
its compiled trace producer (`tilekit sim --producer=compiled --json`
against `tilekit.sim(producer="compiled")`, the producer built once before
the rounds), checking that both reports are equal.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CASES = {
    "softmax 4096x128 f32": ("softmax.mlir", "y", lambda rng: {
        "x": rng.standard_normal((4096, 128), dtype=np.float32),
        "y": np.zeros((4096, 128), np.float32)}),
    "gemm 256^3 f16": ("gemm.mlir", "c", lambda rng: {
        "a": rng.standard_normal((256, 256)).astype(np.float16),
        "b": rng.standard_normal((256, 256)).astype(np.float16),
        "c": np.zeros((256, 256), np.float32)}),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build", nargs="?", default=os.path.join(ROOT, "build"))
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.build, "python"))
    import tilekit

    binary = os.path.join(args.build, "bin", "tilekit")
    tmp = tempfile.mkdtemp(prefix="python-vs-cli-")
    rng = np.random.default_rng(0)
    print("%-22s %-26s %10s %10s" % ("kernel", "how", "min ms", "median ms"))
    for name, (file, output, make) in CASES.items():
        kernel = os.path.join(ROOT, "examples", file)
        inputs = make(rng)
        command = [binary, "run", kernel, "--threads", "1"]
        for arg, array in inputs.items():
            path = os.path.join(tmp, arg + ".npy")
            np.save(path, array)
            command += ["--input", "%s=%s" % (arg, path)]
        out = os.path.join(tmp, "out.npy")
        command += ["--output", "%s=%s" % (output, out)]
        times = {"tilekit run (process)": [], "tilekit.run (in Python)": []}
        for _ in range(args.repeat):
            start = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            times["tilekit run (process)"].append(time.perf_counter() - start)
            start = time.perf_counter()
            result = tilekit.run(kernel, inputs)[output]
            times["tilekit.run (in Python)"].append(time.perf_counter() - start)
        if np.load(out).tobytes() != result.tobytes():
            sys.exit("%s: the two paths differ" % name)
        report(name, times)

    name, kernel = "gemm 4096^3 compiled", os.path.join(ROOT, "examples", "gemm.mlir")
    dims = {"a": (4096, 4096), "b": (4096, 4096), "c": (4096, 4096)}
    command = [binary, "sim", kernel, "--producer=compiled", "--json", "--dims",
               ",".join("%s=%dx%d" % (arg, *shape) for arg, shape in dims.items())]
    tilekit.sim(kernel, producer="compiled", dims=dims)  # builds the producer
    times = {"tilekit sim (process)": [], "tilekit.sim (in Python)": []}
    for _ in range(args.repeat):
        start = time.perf_counter()
        printed = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        times["tilekit sim (process)"].append(time.perf_counter() - start)
        start = time.perf_counter()
        result = tilekit.sim(kernel, producer="compiled", dims=dims)
        times["tilekit.sim (in Python)"].append(time.perf_counter() - start)
    if json.loads(printed) != result:
        sys.exit("%s: the two reports differ" % name)
    report(name, times)


def report(name, times):
    for how, samples in times.items():
        print("%-22s %-26s %10.1f %10.1f" % (name, how, 1e3 * min(samples),
                                              1e3 * statistics.median(samples)))


if __name__ == "__main__":
    main()
