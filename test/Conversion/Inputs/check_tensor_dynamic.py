"""NumPy's reading of Inputs/tensor_dynamic.mlir. `gen DIR` writes the
inputs x, a, b; `check DIR` compares the executor's outputs in DIR with
NumPy's."""
import sys

import numpy as np

mode, d = sys.argv[1:3]
if mode == "gen":
    rng = np.random.default_rng(5)
    np.save(f"{d}/x.npy", rng.uniform(-3, 3, (37, 45)).astype(np.float32))
    np.save(f"{d}/a.npy", rng.uniform(-1, 1, (300, 64)).astype(np.float16))
    np.save(f"{d}/b.npy", rng.uniform(-1, 1, (300, 48)).astype(np.float16))
    sys.exit(0)
load = lambda name: np.load(f"{d}/{name}.npy")
x, a, b = load("x"), load("a"), load("b")
n = 13

t = np.exp(x)
# exp within an ulp or two
assert np.allclose(load("o"), t * np.float32(0.5) + t, rtol=1e-6, atol=1e-6), "o"
assert np.allclose(load("s"), t.sum(axis=1, keepdims=True), rtol=1e-5), "s"
assert np.allclose(load("u"), (t * np.float32(0.5)).reshape(37 * 5, 9), rtol=1e-6), "u"
# f16 products are exact in f32; the sums in K order
q = a.astype(np.float32).T @ b.astype(np.float32)
assert np.allclose(load("q"), q, rtol=1e-5, atol=1e-5), "q"
g = np.zeros((20, 45), np.float32)
g[:n] = 2.0
assert np.array_equal(load("g"), g), "g"
print("numpy: tensor_dynamic agrees")
