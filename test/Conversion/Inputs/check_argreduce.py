"""Inputs for argreduce.mlir, and NumPy's nanargmax / nanargmin (a row of
NaN: column 0) against what the PTO kernel wrote.

usage: check_argreduce.py inputs DIR | check DIR
"""
import sys
import warnings

import numpy as np

mode, where = sys.argv[1], sys.argv[2]
if mode == "inputs":
    r = np.random.RandomState(1)
    x = r.uniform(-1, 1, (16, 64)).astype(np.float32)
    x[0, :] = np.nan
    x[1, 5] = np.nan
    x[2, :] = 0.0
    x[2, :3] = -0.0
    x[3, 10] = x[3, 20] = 5.0
    x[4, :] = -np.inf
    x[5, :] = np.nan
    x[5, 7] = 1.0
    h = r.randint(-30, 30, (5, 128)).astype(np.float16)
    h[1, 100] = np.inf
    h[2, :] = np.nan
    np.save(f"{where}/x.npy", x)
    np.save(f"{where}/h.npy", h)
    sys.exit(0)

warnings.simplefilter("ignore")


def arg(f, rows):
    return np.array([0 if np.isnan(row).all() else f(row) for row in rows])


x, h = np.load(f"{where}/x.npy"), np.load(f"{where}/h.npy")
got = {n: np.load(f"{where}/{n}.npy").ravel() for n in
       ("v", "i", "w", "j", "hv", "hi", "hw", "hj")}
for src, (v, i, w, j) in ((x, ("v", "i", "w", "j")),
                          (h, ("hv", "hi", "hw", "hj"))):
    assert (got[i] == arg(np.nanargmax, src)).all(), (got[i], src)
    assert (got[j] == arg(np.nanargmin, src)).all(), (got[j], src)
    rows = np.arange(len(src))
    for vals, idx in ((got[v], got[i]), (got[w], got[j])):
        assert np.array_equal(vals, src[rows, idx], equal_nan=True)
print("numpy agrees")
