"""Checks Inputs/composite_family.mlir's outputs in DIR against NumPy, bit
for bit: xor / xors / ors / ands and negation of i32, the truncated integer
remainders (by a tile and by 7), and negation of f32 and f16 as the sign
bit flipped.

usage: check_composites.py DIR
"""
import os
import sys

import numpy as np


def main():
    d = sys.argv[1]
    load = lambda name: np.load(os.path.join(d, name + ".npy"))
    a, b = load("ca").astype(np.int64), load("cb").astype(np.int64)
    k, m = 1431655765, 255
    wrap = lambda v: (v + 2**31) % 2**32 - 2**31
    assert (load("co") == wrap(-((((a ^ b) ^ k) | m) & k))).all(), "bitwise"
    rem = lambda x, y: x - np.trunc(x / y).astype(np.int64) * y
    assert (load("cr") == rem(a, b | 1) + rem(a, 7)).all(), "rem, rems"
    x, h = load("cx"), load("ch")
    assert (load("cy").view(np.uint32) == x.view(np.uint32) ^ 0x80000000).all(), "neg f32"
    assert (load("cg").view(np.uint16) == h.view(np.uint16) ^ 0x8000).all(), "neg f16"
    print("composites: every bit as NumPy computes it")


if __name__ == "__main__":
    main()
