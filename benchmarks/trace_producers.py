#!/usr/bin/python3
"""The two trace producers of `tilekit sim`, side by side, whole commands.

    benchmarks/trace_producers.py [BUILD_DIR] [--repeat N] [--budget SECONDS]
                                  [--arch c220|c310]

With --arch every command times the compiled kernel (`sim --arch=A`: the
executor runs the compiled AscendC kernel, the compiled producer is the
AscendC one; both also time the PTO schedule beside it).

For the GEMM and flash-attention examples:

* the largest shape of a ladder that `tilekit sim --producer=interp` (the
  executor, with random data) finishes within the budget (default 60 s);
* at that shape, N interleaved runs of each whole command, interp and
  `--producer=compiled` (its .so cached), min and median seconds, the
  records each writes (the same) and records per second of the command;
* `tilekit sim --producer=compiled` on an 8192^3 GEMM and a 32K-token
  flash attention: the cold command (an empty cache: translation and the
  clang++-22 build) and N warm ones, min and median.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def gemm(n):
    return {
        "interp": ["--input", f"a=rand:{n}x{n}:f16:1",
                   "--input", f"b=rand:{n}x{n}:f16:2",
                   "--input", f"c=zeros:{n}x{n}:f32"],
        "compiled": ["--producer=compiled",
                     "--dims", f"a={n}x{n},b={n}x{n},c={n}x{n}"],
    }


def attention(s):
    return {
        "interp": ["--input", f"q=rand:{s}x64:f16:1",
                   "--input", f"kt=rand:64x{s}:f16:2",
                   "--input", f"v=rand:{s}x64:f16:3",
                   "--input", f"o=zeros:{s}x64:f32"],
        "compiled": ["--producer=compiled",
                     "--dims", f"q={s}x64,kt=64x{s},v={s}x64,o={s}x64"],
    }


KERNELS = {
    "gemm": ("gemm.mlir", gemm, [256, 512, 1024, 1536, 2048, 3072, 4096],
             8192, "8192^3"),
    "flash_attention": ("flash_attention.mlir", attention,
                        [512, 1024, 2048, 4096, 8192, 16384], 32768,
                        "32K tokens"),
}


def run(command, env):
    start = time.perf_counter()
    result = subprocess.run(command, check=True, capture_output=True,
                            text=True, env=env)
    return time.perf_counter() - start, json.loads(result.stdout)


def cell(times):
    return "%.3f/%.3f" % (min(times), statistics.median(times))


def main():
    args = sys.argv[1:]
    repeat, budget, arch = 3, 60.0, None
    for flag in ("--repeat", "--budget", "--arch"):
        if flag in args:
            at = args.index(flag)
            value = args[at + 1]
            del args[at:at + 2]
            if flag == "--repeat":
                repeat = int(value)
            elif flag == "--budget":
                budget = float(value)
            else:
                arch = value
    build = args[0] if args else "build"
    tilekit = os.path.join(build, "bin", "tilekit")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    work = tempfile.mkdtemp(prefix="tilekit-producer-bench-")
    cache = os.path.join(work, "cache")
    env = dict(os.environ, TILEKIT_CACHE_DIR=cache)
    print("%-16s %-10s %10s %-13s %-13s %12s %12s %8s" %
          ("kernel", "shape", "records", "interp s", "compiled s",
           "interp r/s", "compiled r/s", "speedup"))
    large = []
    for name, (path, spec, ladder, big, label) in KERNELS.items():
        kernel = os.path.join(root, "examples", path)
        sim = [tilekit, "sim", kernel, "--json"]
        if arch:
            sim.append("--arch=" + arch)
        # The largest shape of the ladder the interpreter does in budget.
        chosen = None
        for size in ladder:
            seconds, _ = run(sim + spec(size)["interp"], env)
            if seconds > budget:
                break
            chosen = size
        times = {"interp": [], "compiled": []}
        records = {}
        run(sim + spec(chosen)["compiled"], env)  # build the .so once
        for _ in range(repeat):
            for producer in times:
                seconds, report = run(sim + spec(chosen)[producer], env)
                times[producer].append(seconds)
                records[producer] = report["records"]
        assert records["interp"] == records["compiled"], records
        n = records["interp"]
        rate = {p: n / statistics.median(t) for p, t in times.items()}
        print("%-16s %-10s %10d %-13s %-13s %12.3g %12.3g %7.1fx" %
              (name, chosen, n, cell(times["interp"]),
               cell(times["compiled"]), rate["interp"], rate["compiled"],
               statistics.median(times["interp"]) /
               statistics.median(times["compiled"])))
        large.append((name, label, sim + spec(big)["compiled"]))
    print()
    print("%-16s %-11s %10s %-8s %-13s" %
          ("kernel", "shape", "records", "cold s", "warm s"))
    for name, label, command in large:
        shutil.rmtree(cache, ignore_errors=True)
        try:
            cold, report = run(command, env)
        except subprocess.CalledProcessError as failure:
            # A limit stopped it (the memory budget, say): say which.
            why = (failure.stderr or "").strip().splitlines()
            print("%-16s %-11s %s" % (name, label,
                                      why[-1] if why else "failed"))
            continue
        warm = [run(command, env)[0] for _ in range(repeat)]
        print("%-16s %-11s %10d %-8.3f %-13s" %
              (name, label, report["records"], cold, cell(warm)))
    print("seconds of whole `tilekit sim` commands: min/median of %d "
          "interleaved runs; records per second over the median" % repeat)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
