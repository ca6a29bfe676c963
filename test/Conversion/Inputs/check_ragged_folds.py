"""Inputs for ragged_folds.mlir, and NumPy's row folds of the valid columns
against what the PTO kernel wrote: maxima and minima exact, sums and
products within float rounding of float64's.

usage: check_ragged_folds.py inputs DIR | check DIR
"""
import sys

import numpy as np

mode, where = sys.argv[1], sys.argv[2]
rows = 37
if mode == "inputs":
    r = np.random.RandomState(7)
    x = r.uniform(-4, 4, (rows, 50)).astype(np.float32)
    x[3, 49] = 100.0  # the last valid column holds the maximum
    x[4, 0] = -100.0  # the first the minimum
    h = r.uniform(-2, 2, (rows, 21)).astype(np.float16)
    q = r.uniform(0.5, 2, (rows, 3)).astype(np.float32)
    y = r.uniform(-4, 4, (rows, 70)).astype(np.float32)
    y[5, 69] = 100.0
    for name, value in (("x", x), ("h", h), ("q", q), ("y", y)):
        np.save(f"{where}/{name}.npy", value)
    sys.exit(0)

x, h, q, y = (np.load(f"{where}/{n}.npy") for n in ("x", "h", "q", "y"))
got = {n: np.load(f"{where}/{n}.npy").ravel()
       for n in ("sx", "mx", "nx", "sh", "mh", "pq", "sy", "my")}
exact = {"mx": x.max(1), "nx": x.min(1), "mh": h.max(1), "my": y.max(1)}
close = {"sx": (x.astype(np.float64).sum(1), 1e-5),
         "sy": (y.astype(np.float64).sum(1), 1e-5),
         "sh": (h.astype(np.float64).sum(1), 2e-3),
         "pq": (q.astype(np.float64).prod(1), 1e-6)}
for name, want in exact.items():
    if not np.array_equal(got[name], want.astype(got[name].dtype)):
        sys.exit(f"{name}: {got[name]} != {want}")
for name, (want, rtol) in close.items():
    scale = np.maximum(np.abs(want), 1.0)
    err = np.max(np.abs(got[name].astype(np.float64) - want) / scale)
    if err > rtol:
        sys.exit(f"{name}: relative error {err} over {rtol}")
print("numpy agrees")
