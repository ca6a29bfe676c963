#!/usr/bin/env python3
"""The vector-function path, whole commands, interleaved.

Each round, in turn: `tilekit compile examples/vf/add.mlir --emit=vf-bundle`
into an empty cache (cold: EmitC, two clang++-22 runs, ld.lld-22, the ELF
check), the same into a warm cache (a hit), one request to a persistent
tilekit-vf-worker (n = 1024, the client's round trip: sending the code and
tensors, running kernel_entry, receiving the tensors), and a whole `tilekit
run` of the same kernel (the executor, for comparison). Prints min and
median of each.

usage: /usr/bin/python3 benchmarks/vf_bundle.py [BUILD_DIR] [--repeat N]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "vf"))
from vf_worker import Bundle, Worker  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build", nargs="?", default=os.path.join(ROOT, "build"))
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    tilekit = os.path.join(args.build, "bin", "tilekit")
    kernel = os.path.join(ROOT, "examples", "vf", "add.mlir")
    tmp = tempfile.mkdtemp(prefix="vf-bench-")
    warm_cache = os.path.join(tmp, "warm-cache")
    times = {"compile, cold cache": [], "compile, cache hit": [],
             "worker request (n=1024)": [], "tilekit run (executor)": []}

    def compile_into(cache, name):
        env = dict(os.environ, TILEKIT_CACHE_DIR=cache)
        start = time.perf_counter()
        subprocess.run([tilekit, "compile", kernel, "--emit=vf-bundle", "-o",
                        os.path.join(tmp, name)], env=env, check=True,
                       stderr=subprocess.DEVNULL)
        return time.perf_counter() - start

    compile_into(warm_cache, "first")
    bundle = Bundle(os.path.join(tmp, "first"))
    worker = Worker(os.path.join(args.build, "bin", "tilekit-vf-worker"))
    n = 1024
    rng = np.random.default_rng(0)
    values = {"x": rng.standard_normal((1, n + 96), dtype=np.float32),
              "y": rng.standard_normal((1, n + 96), dtype=np.float32),
              "z": np.zeros((1, n), np.float32), "n": n}
    for name in "xyz":
        np.save(os.path.join(tmp, name + ".npy"), values[name])
    run_argv = [tilekit, "run", kernel, "--input", "n=%d" % n,
                "--output", "z=" + os.path.join(tmp, "out.npy")]
    for name in "xyz":
        run_argv += ["--input", "%s=%s" % (name, os.path.join(tmp, name + ".npy"))]
    for r in range(args.repeat):
        cold = os.path.join(tmp, "cold-%d" % r)
        times["compile, cold cache"].append(compile_into(cold, "cold-out-%d" % r))
        times["compile, cache hit"].append(compile_into(warm_cache, "hit-out-%d" % r))
        start = time.perf_counter()
        outputs, _ = worker.run(bundle, values)
        times["worker request (n=1024)"].append(time.perf_counter() - start)
        start = time.perf_counter()
        subprocess.run(run_argv, check=True)
        times["tilekit run (executor)"].append(time.perf_counter() - start)
        assert np.array_equal(outputs["z"], np.load(os.path.join(tmp, "out.npy")))
    worker.close()
    shutil.rmtree(tmp)
    print("%-26s %10s %10s   (%d rounds, interleaved)" % ("", "min", "median", args.repeat))
    for name, samples in times.items():
        print("%-26s %8.2f ms %8.2f ms" % (name, min(samples) * 1e3,
                                           statistics.median(samples) * 1e3))


if __name__ == "__main__":
    main()
