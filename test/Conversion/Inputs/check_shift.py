"""Inputs for shift_by_tile.mlir and what NumPy says the shifts give: an
amount outside [0, width) shifts every bit out (shl: 0) or leaves the sign
(shr: 0 or -1; unsigned elements shift right logically, so 0).

usage: check_shift.py DIR
"""
import sys

import numpy as np

where = sys.argv[1]
r = np.random.RandomState(4)
a = r.randint(-2**31, 2**31, (5, 64), dtype=np.int64).astype(np.int32)
s = r.randint(-3, 40, (5, 64)).astype(np.int32)
h = r.randint(-2**15, 2**15, (4, 32)).astype(np.int16)
t = r.randint(-3, 20, (4, 32)).astype(np.int16)
u = r.randint(0, 2**8, (4, 32)).astype(np.uint8)
v = r.randint(0, 12, (4, 32)).astype(np.uint8)
v[0, :4] = [255, 8, 7, 0]


def shl(x, n, width):
    inside = (n >= 0) & (n < width)
    out = np.where(inside, x.astype(np.int64) << np.clip(n, 0, width - 1), 0)
    out %= 1 << width
    return np.where(out >= 1 << (width - 1), out - (1 << width), out)


def shl_unsigned(x, n, width):
    inside = n < width
    return np.where(inside, (x.astype(np.int64) << np.minimum(n, width - 1)) % (1 << width), 0)


def shr_unsigned(x, n, width):
    return np.where(n < width, x.astype(np.int64) >> np.minimum(n, width - 1), 0)


def shr(x, n, width):
    inside = (n >= 0) & (n < width)
    x = x.astype(np.int64)
    return np.where(inside, x >> np.clip(n, 0, width - 1), np.where(x < 0, -1, 0))


for name, value in {"a": a, "s": s, "h": h, "t": t,
                    "wl": shl(a, s, 32).astype(np.int32),
                    "wr": shr(a, s, 32).astype(np.int32),
                    "whl": shl(h, t, 16).astype(np.int16),
                    "whr": shr(h, t, 16).astype(np.int16),
                    "u": u, "v": v,
                    "wul": shl_unsigned(u, v, 8).astype(np.uint8),
                    "wur": shr_unsigned(u, v, 8).astype(np.uint8)}.items():
    np.save(f"{where}/{name}.npy", value)
