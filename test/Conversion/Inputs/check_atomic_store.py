"""Inputs for atomic_store.mlir, and NumPy's sums against what the PTO
kernel wrote: y0 + x + x in the element type (each add rounded once, so
equal to the bit), and C0 + the two halves of K's products (f32, within
float rounding of float64's product).

usage: check_atomic_store.py inputs DIR | check DIR
"""
import sys

import numpy as np

mode, where = sys.argv[1], sys.argv[2]
rows = 37
if mode == "inputs":
    r = np.random.RandomState(3)
    arrays = {
        "x": r.uniform(-8, 8, (rows, 48)).astype(np.float32),
        "y": r.uniform(-8, 8, (rows, 48)).astype(np.float32),
        "h": r.uniform(-8, 8, (rows, 40)).astype(np.float16),
        "g": r.uniform(-8, 8, (rows, 40)).astype(np.float16),
        "i": r.randint(-2**31, 2**31 - 1, (rows, 24)).astype(np.int32),
        "j": r.randint(-2**31, 2**31 - 1, (rows, 24)).astype(np.int32),
        "a": r.uniform(-1, 1, (48, 64)).astype(np.float16),
        "b": r.uniform(-1, 1, (64, 32)).astype(np.float16),
        "c": r.uniform(-1, 1, (48, 32)).astype(np.float32),
    }
    for name, value in arrays.items():
        np.save(f"{where}/{name}.npy", value)
    sys.exit(0)

inputs = {n: np.load(f"{where}/{n}.npy") for n in "xyhgijabc"}
for src, dst in (("x", "y"), ("h", "g"), ("i", "j")):
    x = inputs[src]
    with np.errstate(over="ignore"):
        want = inputs[dst] + x + x  # wraps for int32, as the kernel
    got = np.load(f"{where}/out_{dst}.npy")
    if not np.array_equal(got.view(np.uint8), want.view(np.uint8)):
        sys.exit(f"{dst}: differs at {np.argwhere(got != want)[:4]}")
a, b = inputs["a"].astype(np.float64), inputs["b"].astype(np.float64)
want = inputs["c"] + a @ b
got = np.load(f"{where}/out_c.npy").astype(np.float64)
if np.max(np.abs(got - want)) > 1e-5 * max(1.0, np.max(np.abs(want))):
    sys.exit(f"c: max error {np.max(np.abs(got - want))}")
print("numpy agrees")
