"""NumPy's reading of Inputs/tensor_compute.mlir. `gen DIR` writes the
inputs x, v, w0; `check DIR` compares the executor's outputs in DIR (w is
w0 after the element write) with NumPy's."""
import sys

import numpy as np

mode, d = sys.argv[1:3]
if mode == "gen":
    rng = np.random.default_rng(7)
    np.save(f"{d}/x.npy", rng.uniform(-3, 3, (37, 45)).astype(np.float32))
    np.save(f"{d}/v.npy", rng.uniform(-5, 5, (3, 5, 70)).astype(np.float16))
    w = rng.integers(-(2**31), 2**31, 50, dtype=np.int64)
    w[:3] = [2**31 - 1, -(2**31), 2**30]  # doubling wraps
    np.save(f"{d}/w0.npy", w.astype(np.int32))
    sys.exit(0)
load = lambda name: np.load(f"{d}/{name}.npy")
x, v, w0 = load("x"), load("v"), load("w0")

y = np.exp(x) * np.float32(0.5) + x
# exp within an ulp or two; the sum cancels near x = -0.35
assert np.allclose(load("y"), y, rtol=1e-6, atol=4e-6), "y"
assert np.array_equal(load("h"), load("y").astype(np.float16)), "h"

z = np.full((20, 45), 2.0, np.float32)
z[3, 7] = -1.0
z[1:8, 2:7] = x[30:37, 40:45] * 2  # the slice's valid 7 x 5 part
assert np.array_equal(load("z"), z), "z"

s = np.zeros((32, 45), np.float32)
s[0:16] = x[8:24]
s[16:29] = x[24:37]  # the second slice reaches past row 37
assert np.array_equal(load("s"), s), "s"

assert np.array_equal(load("u"), np.maximum(v, 0) - v), "u"

w = w0.copy()
w[41] = 7
assert np.array_equal(load("w"), w), "w"
assert np.array_equal(load("ww"), (w.astype(np.int64) * 2).astype(np.int32)), "ww"
print("numpy: tensor_compute agrees")
