"""NumPy model of Inputs/lanes.mlir; exits 1 when out.npy differs."""
import sys

import numpy as np

x, y, z, out = (np.load(p)[0] for p in sys.argv[1:5])
s, n = np.float32(sys.argv[5]), int(sys.argv[6])
a, b, c, d = x[:64], y[:64], x[64:], y[64:]
sub = a - b
div = sub / s
mn = np.where(div < c, div, c)
sel = np.where(a <= b, mn, d)
m1 = np.where(c >= d, c, d)
m2 = np.where(c < d, m1, a)
m3 = np.where(c != d, m2, b)
m4 = np.where(c == c, m3, s)
m5 = np.where(c > d, m4, mn)
add = m5 * s + c
mx = np.where(add > s, add, s)
want = z.copy()
want[:5] = sel[:5]
want[64 + 55:] = mx[55:]
k = max(0, min(n - 64, 64))
want[64:64 + k] = add[:k]
if not np.array_equal(want.view(np.uint32), out.view(np.uint32)):
    bad = np.flatnonzero(want.view(np.uint32) != out.view(np.uint32))
    print("differs at", bad[:8], "want", want[bad[:4]], "got", out[bad[:4]])
    sys.exit(1)
print("lanes: equal to the model")
