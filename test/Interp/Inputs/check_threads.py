"""Checks the outputs of threads.mlir (prefix sys.argv[1]) against NumPy."""
import sys

import numpy as np

prefix = sys.argv[1]
x = np.load(prefix + ".x.npy")
idx = np.load(prefix + ".idx.npy")[0]

rows = np.load(prefix + ".rows.3.npy")
np.testing.assert_allclose(rows, np.exp(x) * 2, rtol=3e-7)

# The chain's sums in program order, rounded to f32 after every op: bit-equal.
y = np.zeros((4, 8), np.float32)
for _ in range(16):
    for row in range(34):
        y = y * np.float32(0.5) + x[row:row + 4]
assert np.array_equal(np.load(prefix + ".chain.3.npy"), y), "chain"

z = np.zeros((8, 8), np.float32)
for i in range(4):
    z[2 * i] = np.exp(x[i]) + 1
    z[2 * i + 1] = x[i] + 1
np.testing.assert_allclose(np.load(prefix + ".viewed.3.npy"), z, rtol=3e-7)

gathered = np.concatenate([x[4 * k:4 * k + 4] for k in idx])
assert np.array_equal(np.load(prefix + ".gathered.3.npy"), gathered), "gather"
