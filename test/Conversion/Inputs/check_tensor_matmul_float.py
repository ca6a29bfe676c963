"""NumPy's reading of Inputs/tensor_matmul_float.mlir (`DIR`), of
Inputs/tensor_matmul_epilogue.mlir (`DIR epilogue`) or of
Inputs/tensor_matmul_transposed.mlir (`DIR transposed K`), from the executor's
inputs and outputs in DIR: each f32 element is its products added in K order
from zero, one rounding each (a product of f16 values is exact in f32, so
this is the fused multiply-add of the definition), which also lies within
1e-5 of float64's product; the int8 product is NumPy's, wrapped to int32."""
import sys

import numpy as np

d = sys.argv[1]
load = lambda name: np.load(f"{d}/{name}.npy")


def in_k_order(a, b):
    a, b = a.astype(np.float32), b.astype(np.float32)
    c = np.zeros(a.shape[:-1] + b.shape[-1:], np.float32)
    for k in range(a.shape[-1]):
        c = c + a[..., k : k + 1] * b[..., k : k + 1, :]
    return c



def turned(x):
    return np.swapaxes(x, -1, -2)


def check_product(out, lhs, rhs, turn_a=False, turn_b=False):
    a, b, c = load(lhs), load(rhs), load(out)
    a = turned(a) if turn_a else a
    b = turned(b) if turn_b else b
    assert np.array_equal(c, in_k_order(a, b)), out
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert np.allclose(c, exact, rtol=1e-5, atol=1e-5), out
    return c


if sys.argv[2:] == ["epilogue"]:
    y = check_product("y", "x", "w")
    assert np.array_equal(load("z"), np.maximum(y + load("b"), 0)), "z"
elif sys.argv[2:3] == ["transposed"]:
    check_product("q", "p", "r", turn_a=True)
    check_product("z", "u", "v", turn_b=True)
    check_product("w", "x", "y", turn_a=True, turn_b=True)
    check_product("d", "a", "b")
    t = load("g").astype(np.int64) @ turned(load("h")).astype(np.int64)
    assert np.array_equal(load("t"), t.astype(np.int32)), "t"
    # matmul_acc: the accumulator plus the product, the accumulator left
    # out where init (k == 0) holds; int32 wraps.
    c = load("c").astype(np.int64)
    assert np.array_equal(load("e"), (c + t).astype(np.int32)), "e"
    first = int(sys.argv[3]) == 0
    assert np.array_equal(load("f"), ((0 if first else c) + t).astype(np.int32)), "f"
else:
    check_product("q", "p", "r")
    check_product("z", "u", "v")
    t = load("g").astype(np.int64) @ load("h").astype(np.int64)
    assert np.array_equal(load("t"), t.astype(np.int32)), "t"
print("numpy agrees")
