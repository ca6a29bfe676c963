"""Times one kernel compiled for an architecture two ways and checks that
they agree: `tilekit sim --arch=ARCH KERNEL` (compile, then time) and
`tilekit sim` of the file `tilekit compile --arch=ARCH` writes, and
`tilekit sim --arch=ARCH --producer=compiled` (the compiled kernel's
compiled trace producer, with the inputs' shapes only) must give the same
trace record for record and the same cycles; a second `sim --arch` run
must give them again (same input, same cycles).

usage: compiled_sim.py TILEKIT KERNEL OUTDIR ARCH [sim options...] -- NAME=SPEC...
(a SPEC without a shape is a scalar, passed to the compiled producer too)

Prints "same: N records, C cycles, ideal I" and the --arch report's
synchronization line.
"""

import json
import os
import subprocess
import sys


def run(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("failed (%d): %s\n%s%s" % (done.returncode, " ".join(command),
                                            done.stdout, done.stderr))
    return done.stdout


def main():
    tilekit, kernel, out, arch = sys.argv[1:5]
    rest = sys.argv[5:]
    split = rest.index("--")
    options, specs = rest[:split], rest[split + 1:]
    inputs = []
    for spec in specs:
        inputs += ["--input", spec]
    config = os.path.join(os.path.dirname(tilekit), "..", "share", "tilekit",
                          "configs",
                          "ascend950.json" if arch == "c310" else "ascend910b.json")
    if "--config" not in options:
        options += ["--config", config]
    name = os.path.splitext(os.path.basename(kernel))[0] + "_" + arch
    compiled = os.path.join(out, name + ".mlir")
    run([tilekit, "compile", "--arch=" + arch, kernel, "-o", compiled])
    dims = ",".join("%s=%s" % (spec.split("=")[0], spec.split(":")[1])
                    for spec in specs if ":" in spec)
    scalars = []
    for spec in specs:
        if ":" not in spec and not spec.endswith(".npy"):
            scalars += ["--scalar", spec]
    reports, traces = [], []
    runs = [["--arch=" + arch, kernel] + inputs,
            ["--arch=" + arch, kernel] + inputs,
            [compiled] + inputs,
            ["--arch=" + arch, kernel, "--producer=compiled", "--dims", dims]
            + scalars]
    for index, source in enumerate(runs):
        trace = os.path.join(out, "%s.%d.txt" % (name, index))
        reports.append(json.loads(run(
            [tilekit, "sim"] + source + options +
            ["--json", "--trace-out", trace])))
        with open(trace) as f:
            traces.append([line.split(" loc=")[0] for line in f
                           if not line.startswith("#")])
    for index, what in [(1, "a second sim --arch"),
                        (2, "sim of the compiled file"),
                        (3, "sim --arch --producer=compiled")]:
        if traces[index] != traces[0]:
            first = next(i for i, (a, b) in enumerate(zip(traces[0], traces[index]))
                         if a != b) if any(a != b for a, b in zip(traces[0], traces[index])) \
                else min(len(traces[0]), len(traces[index]))
            sys.exit("%s: trace differs from sim --arch at record %d:\n  %s\n  %s"
                     % (what, first,
                        traces[0][first] if first < len(traces[0]) else "(end)",
                        traces[index][first] if first < len(traces[index]) else "(end)"))
        if reports[index]["cycles"] != reports[0]["cycles"] or (
                index != 2 and
                reports[index]["ideal_cycles"] != reports[0]["ideal_cycles"]):
            sys.exit("%s: %d cycles, sim --arch %d" % (
                what, reports[index]["cycles"], reports[0]["cycles"]))
    report = reports[0]
    sync = report["sync"]
    print("same: %d records, %d cycles, ideal %d" %
          (len(traces[0]), report["cycles"], report["ideal_cycles"]))
    print("placement: " + report["placement"])
    print("sync: " + ", ".join("%s %d/%d" % (k, v["waits"], v["cycles"])
                               for k, v in sorted(sync.items()) if v["waits"]))


if __name__ == "__main__":
    main()
