"""Runs `tilekit sim` on one kernel with both trace producers and checks
that they agree: the interpreter's trace (with data from the --input specs)
and the compiled producer's (with only the shapes and scalars of those
specs, as --dims and --scalar) must be equal record for record, and the
reports equal to the cycle.

usage: same_trace.py TILEKIT KERNEL OUTDIR [sim options...] -- NAME=SPEC...

A SPEC is what --input takes: rand:SHAPE:TYPE[:SEED], zeros:SHAPE:TYPE,
FILE.npy, or a number (a scalar). When both refuse the kernel (a deadlock,
a bad split), that agrees too: the compiled producer's error is printed.
"""

import json
import subprocess
import sys

import numpy as np


def shape_of(spec):
    if spec.startswith(("rand:", "zeros:")):
        return spec.split(":")[1]
    if spec.endswith(".npy"):
        return "x".join(str(d) for d in np.load(spec, mmap_mode="r").shape)
    return None


def main():
    tilekit, kernel, out = sys.argv[1:4]
    split = sys.argv.index("--")
    options, specs = sys.argv[4:split], sys.argv[split + 1:]
    inputs, dims, scalars = [], [], []
    for item in specs:
        name, spec = item.split("=", 1)
        inputs += ["--input", item]
        shape = shape_of(spec)
        if shape is None:
            scalars += ["--scalar", item]
        else:
            dims += ["--dims", f"{name}={shape}"]
    runs = {
        "interp": inputs,
        "compiled": ["--producer=compiled"] + dims + scalars,
    }
    traces, reports, errors = {}, {}, {}
    for producer, args in runs.items():
        trace = f"{out}/{producer}.txt"
        result = subprocess.run(
            [tilekit, "sim", kernel, "--json", "--trace-out", trace]
            + options + args, capture_output=True, text=True)
        if result.returncode != 0:
            errors[producer] = result.stderr
            continue
        with open(trace) as f:
            traces[producer] = f.read().splitlines()
        reports[producer] = json.loads(result.stdout)
    if len(errors) == 2:
        # Each producer's first error line, for the test to check both.
        print("both refuse:", errors["compiled"].splitlines()[0])
        print("interp refuses:", errors["interp"].splitlines()[0])
        return
    for producer, error in errors.items():
        sys.exit(f"{producer}: tilekit sim failed:\n{error}")
    a, b = traces["interp"], traces["compiled"]
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            sys.exit(f"record {i - 1} differs:\n  interp:   {x}\n"
                     f"  compiled: {y}")
    if len(a) != len(b):
        sys.exit(f"interp wrote {len(a) - 1} records, compiled {len(b) - 1}")
    if reports["interp"] != reports["compiled"]:
        sys.exit(f"the reports differ:\n  interp:   {reports['interp']}\n"
                 f"  compiled: {reports['compiled']}")
    print(f"same: {len(a) - 1} records, "
          f"{reports['interp']['cycles']} cycles")


if __name__ == "__main__":
    main()
