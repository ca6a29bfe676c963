#!/usr/bin/python3
"""What `tilekit run --compiled` costs next to the executor, on the examples.

    benchmarks/compiled_run.py [BUILD_DIR] [--repeat N] [--only NAME,...]

For each example (the GEMM and flash-attention ones at the largest sizes
their tests use, GEMM also at 1024^3, and the others) and each
architecture, prints:

* the emitted C++'s lines (`tilekit compile --emit=cpp`, blank lines not
  counted) and the time of that command;
* the cold `tilekit run --compiled` (an empty cache: translation, the
  clang++-22 build of the kernel object, the run);
* whole `tilekit run` commands, N runs interleaved, min and median: the
  executor running the compiled AscendC kernel, and `--compiled` with the
  object cached (the same inputs and checks: both run the race model).
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# The examples' inputs, as compile_examples.py runs them, and GEMM at 1024^3.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compile_examples import EXAMPLES  # noqa: E402

EXAMPLES = dict(EXAMPLES)
EXAMPLES["gemm_1024"] = ["a=rand:1024x1024:f16:1", "b=rand:1024x1024:f16:2",
                         "c=zeros:1024x1024:f32"]


def timed(command, env=None):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def main():
    args = sys.argv[1:]
    repeat, only = 5, None
    if "--repeat" in args:
        at = args.index("--repeat")
        repeat = int(args[at + 1])
        del args[at:at + 2]
    if "--only" in args:
        at = args.index("--only")
        only = args[at + 1].split(",")
        del args[at:at + 2]
    build = args[0] if args else "build"
    tilekit = os.path.join(build, "bin", "tilekit")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    work = tempfile.mkdtemp(prefix="tilekit-compiled-bench-")
    cache = os.path.join(work, "cache")
    env = dict(os.environ, TILEKIT_CACHE_DIR=cache)
    print("%-22s %-5s %6s %-7s %-7s %-13s %-13s" %
          ("example", "arch", "lines", "emit", "cold", "executor", "--compiled"))
    for name, inputs in EXAMPLES.items():
        if only and name not in only:
            continue
        kernel = os.path.join(root, "examples", name.split("_1024")[0] + ".mlir")
        options = [word for value in inputs for word in ("--input", value)]
        for arch in ("c220", "c310"):
            out = os.path.join(work, "%s.%s.mlir" % (name, arch))
            cpp = os.path.join(work, "%s.%s.cpp" % (name, arch))
            subprocess.run([tilekit, "compile", kernel, "--arch=" + arch,
                            "-o", out], check=True, stderr=subprocess.DEVNULL)
            emit = timed([tilekit, "compile", kernel, "--arch=" + arch,
                          "--emit=cpp", "-o", cpp])
            lines = sum(1 for line in open(cpp) if line.strip())
            shutil.rmtree(cache, ignore_errors=True)
            cold = timed([tilekit, "run", out, "--compiled"] + options, env)
            commands = {
                "executor": [tilekit, "run", out] + options,
                "--compiled": [tilekit, "run", out, "--compiled"] + options,
            }
            times = {key: [] for key in commands}
            for _ in range(repeat):
                for key, command in commands.items():
                    times[key].append(timed(command, env))
            cells = ["%.3f/%.3f" % (min(t), statistics.median(t))
                     for t in times.values()]
            print("%-22s %-5s %6d %-7.3f %-7.3f %-13s %-13s" %
                  ((name, arch, lines, emit, cold) + tuple(cells)))
    print("seconds; executor and --compiled: min/median of %d interleaved "
          "runs of each whole command" % repeat)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
