"""Checks the kernels of index-ops.mlir against NumPy references written
from the op descriptions, through `tilekit run` and through the emitted
torch script (in this process), on ragged valid shapes, ties, NaN and
signed zeros.

    index_ops.py KERNEL.mlir SCRIPT.py WORKDIR

Exact comparisons everywhere except tanh, sigmoid and erf (2 ulp of f32
against NumPy / math.erf). Prints one line per check; exits 1 on a failure.
"""
import math
import os
import subprocess
import sys

import numpy as np
import torch

RNG = np.random.default_rng(7)
FAILURES = []


def check(label, got, want, ulps=0):
    got, want = np.asarray(got), np.asarray(want)
    if ulps:
        same = np.isclose(got, want, rtol=ulps * 2.0 ** -23, atol=1e-7)
    else:
        same = (got == want) | (np.isnan(got) & np.isnan(want)) \
            if got.dtype.kind == "f" else got == want
        if got.dtype.kind == "f":  # signed zeros count
            same &= np.signbit(got) == np.signbit(want)
    ok = bool(np.all(same))
    print("%s: %s" % (label, "ok" if ok else "MISMATCH"))
    if not ok:
        FAILURES.append("%s\n got %s\nwant %s" % (label, got, want))


class Runner:
    def __init__(self, kernel, script, work):
        self.kernel, self.work = kernel, work
        self.namespace = {"__name__": "tilekit_script"}
        exec(compile(open(script).read(), script, "exec"), self.namespace)

    def run(self, entry, inputs, outputs):
        """inputs: [(name, value)] with arrays or numbers; outputs: [(name,
        shape, dtype)]. Returns (run results, script results) by name."""
        args = ["tilekit", "run", self.kernel, "--entry", entry]
        call = []
        for name, value in inputs:
            if isinstance(value, np.ndarray):
                path = os.path.join(self.work, "%s.%s.npy" % (entry, name))
                np.save(path, value)
                args += ["--input", "%s=%s" % (name, path)]
                call.append(torch.from_numpy(value.copy()))
            else:
                args += ["--input", "%s=%r" % (name, value)]
                call.append(value)
        torch_outputs = []
        for name, shape, dtype in outputs:
            args += ["--input", "%s=zeros:%s:%s" % (
                name, "x".join(map(str, shape)), dtype),
                "--output", "%s=%s" % (name, os.path.join(
                    self.work, "%s.%s.out.npy" % (entry, name)))]
            tensor = torch.zeros(shape, dtype={"f32": torch.float32,
                                               "i32": torch.int32}[dtype])
            torch_outputs.append(tensor)
            call.append(tensor)
        # Outputs come after the inputs in every kernel's signature except
        # where inputs follow; the kernels list them in this order.
        result = subprocess.run(args, capture_output=True, text=True)
        if result.returncode != 0:
            FAILURES.append("%s: tilekit run failed:\n%s" % (entry,
                                                             result.stderr))
            print("%s: FAILED" % entry)
            return None, None
        self.namespace[entry](*self.order(entry, call, inputs, outputs))
        ran = {name: np.load(os.path.join(self.work, "%s.%s.out.npy"
                                          % (entry, name)))
               for name, _, _ in outputs}
        scripted = {name: t.numpy() for (name, _, _), t in
                    zip(outputs, torch_outputs)}
        return ran, scripted

    def order(self, entry, call, inputs, outputs):
        """The script takes arguments in the kernel's order."""
        names = [n for n, _ in inputs] + [n for n, _, _ in outputs]
        wanted = SIGNATURES[entry]
        return [call[names.index(n)] for n in wanted]


SIGNATURES = {
    "iota": ["y", "z", "s", "f"],
    "scans": ["x", "rows", "cols", "r", "c"],
    "argreduce": ["x", "rows", "cols", "mv", "mi", "nv", "ni"],
    "topk": ["x", "rows", "k", "v", "i", "sv", "si"],
    "gather_scatter": ["src", "idx", "n", "ridx", "m", "g", "d"],
    "valid_dims": ["x", "rows", "cols", "y"],
    "unary": ["x", "a", "b", "c"],
}


def both(runner, entry, inputs, outputs, references, ulps=0):
    ran, scripted = runner.run(entry, inputs, outputs)
    if ran is None:
        return
    for name, want in references.items():
        check("%s %s run" % (entry, name), ran[name], want, ulps)
        check("%s %s script" % (entry, name), scripted[name], want, ulps)


def sort_key(value, index):
    """Ascend's Sort32 order: NaN first, then descending, then by index."""
    if math.isnan(value):
        return (0, 0.0, index)
    return (1, -value, index)


def main(kernel, script, work):
    os.makedirs(work, exist_ok=True)
    runner = Runner(kernel, script, work)

    # iota: every row is start + j, or start - j descending.
    cols = np.arange(16)
    both(runner, "iota", [("s", -3), ("f", 2.5)],
         [("y", (2, 16), "i32"), ("z", (2, 16), "f32")],
         {"y": np.tile(-3 + cols, (2, 1)).astype(np.int32),
          "z": np.tile(2.5 - cols, (2, 1)).astype(np.float32)})

    # Prefix sums over a 5x33 valid region: NumPy's cumsum adds in order in
    # float32, as the rule says; the rest of the output stays zero.
    x = RNG.standard_normal((8, 40)).astype(np.float32)
    row = np.zeros_like(x)
    col = np.zeros_like(x)
    row[:5, :33] = np.cumsum(x[:5, :33], axis=1, dtype=np.float32)
    col[:5, :33] = np.cumsum(x[:5, :33], axis=0, dtype=np.float32)
    both(runner, "scans", [("x", x), ("rows", 5), ("cols", 33)],
         [("r", (8, 40), "f32"), ("c", (8, 40), "f32")],
         {"r": row, "c": col})

    # argmax/argmin over 7x50: ties (the first occurrence wins), NaN
    # ignored, an all-NaN row (value NaN, index 0).
    x = RNG.integers(-5, 6, (8, 64)).astype(np.float32)
    x[1, 3] = np.nan
    x[2, :] = np.nan
    x[3, 10] = 100.0
    x[3, 20] = 100.0
    mv, mi = np.zeros((8, 1), np.float32), np.zeros((8, 1), np.int32)
    nv, ni = np.zeros((8, 1), np.float32), np.zeros((8, 1), np.int32)
    for r in range(7):
        region = x[r, :50]
        if np.all(np.isnan(region)):
            mv[r], nv[r] = np.nan, np.nan
            continue
        mi[r], ni[r] = np.nanargmax(region), np.nanargmin(region)
        mv[r], nv[r] = region[mi[r]], region[ni[r]]
    both(runner, "argreduce", [("x", x), ("rows", 7), ("cols", 50)],
         [("mv", (8, 1), "f32"), ("mi", (8, 1), "i32"),
          ("nv", (8, 1), "f32"), ("ni", (8, 1), "i32")],
         {"mv": mv, "mi": mi, "nv": nv, "ni": ni})

    # Top-k of 3 valid rows of 128: sort32 blocks, then merges of 32 and 64
    # give fully sorted rows; ties, NaN and both zeros included.
    x = RNG.integers(-20, 20, (4, 128)).astype(np.float32)
    x[0, 5], x[0, 77] = np.nan, np.nan
    x[1, 0], x[1, 1] = -0.0, 0.0
    k = 10
    blocks_v, blocks_i = np.zeros_like(x), np.zeros((4, 128), np.int32)
    top_v, top_i = np.zeros_like(x), np.zeros((4, 128), np.int32)
    for r in range(3):
        for b in range(0, 128, 32):
            order = sorted(range(b, b + 32),
                           key=lambda c: sort_key(float(x[r, c]), c))
            blocks_v[r, b:b + 32] = x[r, order]
            blocks_i[r, b:b + 32] = order
        order = sorted(range(128), key=lambda c: sort_key(float(x[r, c]), c))
        top_v[r, :k] = x[r, order[:k]]
        top_i[r, :k] = order[:k]
    both(runner, "topk", [("x", x), ("rows", 3), ("k", k)],
         [("v", (4, 128), "f32"), ("i", (4, 128), "i32"),
          ("sv", (4, 128), "f32"), ("si", (4, 128), "i32")],
         {"v": top_v, "i": top_i, "sv": blocks_v, "si": blocks_i})

    # gather by 20 valid flat indices (one negative, one past the box: 0);
    # scatter the negated first two rows (12 valid columns) by row indices
    # (one out of range: nothing written; a repeated target: the later
    # write, in row-major order, wins).
    src = RNG.standard_normal((8, 16)).astype(np.float32)
    idx = RNG.integers(0, 128, (1, 32)).astype(np.int32)
    idx[0, 2], idx[0, 5], idx[0, 9] = -1, 128, idx[0, 3]
    n = 20
    flat = src.reshape(-1)
    gathered = np.zeros((1, 32), np.float32)
    for j in range(n):
        gathered[0, j] = flat[idx[0, j]] if 0 <= idx[0, j] < 128 else 0.0
    ridx = RNG.integers(0, 8, (2, 16)).astype(np.int32)
    ridx[0, 4], ridx[1, 7] = 8, -3
    ridx[1, 0] = ridx[0, 0]
    m = 12
    scattered = src.copy()
    for i in range(2):
        for j in range(m):
            if 0 <= ridx[i, j] < 8:
                scattered[ridx[i, j], j] = -src[i, j]
    both(runner, "gather_scatter",
         [("src", src), ("idx", idx), ("n", n), ("ridx", ridx), ("m", m)],
         [("g", (1, 32), "f32"), ("d", (8, 16), "f32")],
         {"g": gathered, "d": scattered})

    # valid_dim reads the runtime valid shape.
    both(runner, "valid_dims",
         [("x", np.zeros((8, 40), np.float32)), ("rows", 3), ("cols", 17)],
         [("y", (1, 2), "i32")], {"y": np.array([[3, 17]], np.int32)})

    # tanh, sigmoid, erf against NumPy and math.erf.
    x = (RNG.standard_normal((8, 64)) * 3).astype(np.float32)
    x[0, :4] = [0.0, -0.0, 20.0, -20.0]
    both(runner, "unary", [("x", x)],
         [("a", (8, 64), "f32"), ("b", (8, 64), "f32"),
          ("c", (8, 64), "f32")],
         {"a": np.tanh(x),
          "b": (1.0 / (1.0 + np.exp(-x.astype(np.float64)))).astype(
              np.float32),
          "c": np.vectorize(math.erf)(x.astype(np.float64)).astype(
              np.float32)}, ulps=2)

    for failure in FAILURES:
        print(failure)
    print("%d failed" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
