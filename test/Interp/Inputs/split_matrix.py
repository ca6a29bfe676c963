"""Runs the kernels of split-merge.mlir for every split code over even, odd,
full and empty valid extents, through `tilekit run` and through the script
of `tilekit emit --target=torch`, and checks both against the rule:

  the cut is at the box half, or at lane_stride (odd codes only); lane 0
  keeps min(v, cut) valid cells, lane 1 max(0, v - cut); the odd codes need
  lane 0 to hold exactly one more than lane 1; the merge restores the box
  and the valid extent.

    split_matrix.py KERNEL.mlir SCRIPT.py WORKDIR
    split_matrix.py --compile=ARCH KERNEL.mlir WORKDIR

The second form checks the compiled kernel instead: `tilekit compile
--arch=ARCH --verify-each` (every pass keeps the PTO run's outputs, with
no race), then `tilekit run` of what it wrote, against the same rule. The
cases' L1 tiles have rows of 16 bytes, which the machine's L1 copies
cannot move (compile refuses them as the C++ emission does), so the
pipeline's IR is taken through its last pass (--stop-after).

Prints one line per case and exits 1 if any disagrees.
"""
import os
import subprocess
import sys

import numpy as np

BOX = 8
# entry, axis, split code, cut (None: box half), valid extents
CASES = [
    ("run_rows", 0, 1, None, [0, 1, 3, 4, 5, 7, 8]),
    ("run_cols", 1, 2, None, [0, 2, 4, 5, 8]),
    ("run_odd_rows", 0, 3, None, [7, 5, 3, 8]),
    ("run_odd_rows_stride", 0, 3, 3, [5, 7, 3]),
    ("run_odd_cols", 1, 4, None, [7, 1]),
    ("run_odd_cols_stride", 1, 4, 2, [3, 5, 1]),
]


def shapes(axis):
    box = (BOX, 4) if axis == 0 else (4, BOX)
    lanes = (2 * BOX, 4) if axis == 0 else (4, 2 * BOX)
    return box, lanes


def along(axis, start, stop):
    return (slice(start, stop), slice(None)) if axis == 0 else \
        (slice(None), slice(start, stop))


def expected(axis, code, stride, v, x):
    """(y, z, error message) by the rule above."""
    cut = BOX // 2 if stride is None else stride
    lane0, lane1 = min(v, cut), max(0, v - cut)
    if code > 2 and lane0 != lane1 + 1:
        return None, None, (
            "needs lane 0 to hold exactly one valid cell more than lane 1 "
            "along dim %d, but the valid extent %d cut at %d (%s) gives lane "
            "0 %d and lane 1 %d" % (axis, v, cut, "the box half" if stride
                                    is None else "lane_stride", lane0, lane1))
    box, lanes = shapes(axis)
    y = np.zeros(lanes, np.float32)
    y[along(axis, 0, lane0)] = x[along(axis, 0, lane0)]
    y[along(axis, BOX, BOX + lane1)] = x[along(axis, cut, cut + lane1)]
    z = np.zeros(box, np.float32)
    if code <= 2:
        z[along(axis, 0, v)] = x[along(axis, 0, v)]
    return y, z, None


def run(command):
    return subprocess.run(command, capture_output=True, text=True)


def compiled_outputs(arch, kernel, entry, inputs, paths, work):
    """Compiles `entry` with --verify-each and runs the result; the failed
    step's process, or the run's."""
    out = os.path.join(work, "%s.compiled.mlir" % entry)
    built = run(["tilekit", "compile", kernel, "--entry", entry,
                 "--arch=" + arch, "--stop-after=ascendc-form-launch",
                 "--verify-each", "-o", out] + inputs)
    if built.returncode != 0:
        return built
    return run(["tilekit", "run", out, "--entry", entry] + inputs +
               ["--output", "y=" + paths["y"], "--output", "z=" + paths["z"]])


def each_case(work):
    """(entry, v, box, lanes, path of x, the rule's (y, z, error)) of every
    case, x saved under `work`."""
    for entry, axis, code, cut, extents in CASES:
        box, lanes = shapes(axis)
        x = (np.arange(box[0] * box[1], dtype=np.float32) + 1).reshape(box)
        xpath = os.path.join(work, "x%d.npy" % axis)
        np.save(xpath, x)
        for v in extents:
            yield entry, v, box, lanes, xpath, expected(axis, code, cut, v, x)


def shape(extents):
    return "x".join(map(str, extents))


def check_compiled(arch, kernel, work):
    failures = 0
    for entry, v, box, lanes, xpath, want in each_case(work):
        y_want, z_want, error = want
        paths = {n: os.path.join(work, "%s.%d.%s.npy" % (entry, v, n))
                 for n in ("y", "z")}
        inputs = ["--input", "x=" + xpath,
                  "--input", "y=zeros:%s:f32" % shape(lanes),
                  "--input", "z=zeros:%s:f32" % shape(box),
                  "--input", "v=%d" % v, "--input", "k=%d" % BOX]
        result = compiled_outputs(arch, kernel, entry, inputs, paths, work)
        label = "%s v=%d" % (entry, v)
        if error:
            ok = result.returncode != 0 and error in result.stderr
            print("%s: error %s" % (label, "ok" if ok else "MISSING"))
            failures += not ok
            continue
        if result.returncode != 0:
            print("%s: FAILED\n  %s" % (label, result.stderr.strip()))
            failures += 1
            continue
        ok = (np.array_equal(np.load(paths["y"]), y_want) and
              np.array_equal(np.load(paths["z"]), z_want))
        print("%s: %s" % (label, "ok" if ok else "MISMATCH"))
        failures += not ok
    print("%d failed" % failures)
    return 1 if failures else 0


def main(kernel, script, work):
    failures = 0
    for entry, v, box, lanes, xpath, want in each_case(work):
        y_want, z_want, error = want
        paths = {n: os.path.join(work, "%s.%d.%s.npy" % (entry, v, n))
                 for n in ("y", "z", "sy", "sz")}
        tk = run(["tilekit", "run", kernel, "--entry", entry,
                  "--input", "x=" + xpath,
                  "--input", "y=zeros:%s:f32" % shape(lanes),
                  "--input", "z=zeros:%s:f32" % shape(box),
                  "--input", "v=%d" % v, "--input", "k=%d" % BOX,
                  "--output", "y=" + paths["y"],
                  "--output", "z=" + paths["z"]])
        py = run(["/usr/bin/python3",
                  os.path.join(os.path.dirname(__file__), "..", "..",
                               "Target", "Torch", "Inputs",
                               "run_script.py"),
                  script, entry, xpath, "zeros:%s:f32" % shape(lanes),
                  "zeros:%s:f32" % shape(box), str(v), str(BOX),
                  "--save", "1=" + paths["sy"],
                  "--save", "2=" + paths["sz"]])
        label = "%s v=%d" % (entry, v)
        if error:
            ok = (tk.returncode != 0 and error in tk.stderr and
                  py.returncode != 0 and error in py.stderr)
            print("%s: error %s" % (label, "ok" if ok else "MISSING"))
            if not ok:
                print("  want: " + error)
                print("  run: " + tk.stderr.strip()[-400:])
                print("  script: " + py.stderr.strip()[-400:])
                failures += 1
            continue
        if tk.returncode != 0 or py.returncode != 0:
            print("%s: FAILED\n  run: %s\n  script: %s"
                  % (label, tk.stderr.strip(), py.stderr.strip()))
            failures += 1
            continue
        got = {n: np.load(p) for n, p in paths.items()}
        ok = all(np.array_equal(got[a], expect) for a, expect in
                 (("y", y_want), ("sy", y_want),
                  ("z", z_want), ("sz", z_want)))
        print("%s: %s" % (label, "ok" if ok else "MISMATCH"))
        if not ok:
            for n in ("y", "sy", "z", "sz"):
                print("  %s:\n%s" % (n, got[n]))
            print("  want y:\n%s\n  want z:\n%s" % (y_want, z_want))
            failures += 1
    print("%d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1].startswith("--compile="):
        sys.exit(check_compiled(sys.argv[1].split("=", 1)[1], *sys.argv[2:]))
    sys.exit(main(*sys.argv[1:]))
