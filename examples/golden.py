#!/usr/bin/env python3
"""Inputs and NumPy goldens for the tilekit examples.

    golden.py EXAMPLE OUTDIR [SIZES...] [--seed N]

writes OUTDIR/<name>.npy for every input of the example and
OUTDIR/expected_<name>.npy for every output, computed independently of
tilekit in float64 NumPy (with the f16 rounding the kernel performs where it
changes the result). Run it with Debian's /usr/bin/python3 (python3-numpy).
"""

import argparse
import os

import numpy as np


def softmax(rng, rows=100):
    x = rng.standard_normal((rows, 128)).astype(np.float32)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return {"x": x}, {"y": (e / e.sum(axis=1, keepdims=True)).astype(np.float32)}


def rmsnorm(rng, rows=37):
    x = rng.standard_normal((rows, 256)).astype(np.float32)
    gamma = rng.standard_normal((1, 256)).astype(np.float32)
    mean_sq = (x.astype(np.float64) ** 2).mean(axis=1, keepdims=True)
    y = x / np.sqrt(mean_sq + 1e-6) * gamma
    return {"x": x, "gamma": gamma}, {"y": y.astype(np.float32)}


def layernorm(rng, rows=45):
    x = rng.standard_normal((rows, 128)).astype(np.float16)
    gamma = rng.standard_normal((1, 128)).astype(np.float32)
    beta = rng.standard_normal((1, 128)).astype(np.float32)
    xf = x.astype(np.float64)
    mu = xf.mean(axis=1, keepdims=True)
    var = ((xf - mu) ** 2).mean(axis=1, keepdims=True)
    y = (xf - mu) / np.sqrt(var + 1e-5) * gamma + beta
    return {"x": x, "gamma": gamma, "beta": beta}, {"y": y.astype(np.float16)}


def gemm(rng, m=100, k=70, n=90):
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = a.astype(np.float64) @ b.astype(np.float64)
    return {"a": a, "b": b}, {"c": c.astype(np.float32)}


def flash_attention(rng, seq=150, dim=64):
    q = rng.standard_normal((seq, dim)).astype(np.float16)
    k = rng.standard_normal((seq, dim)).astype(np.float16)
    v = rng.standard_normal((seq, dim)).astype(np.float16)
    s = q.astype(np.float64) @ k.astype(np.float64).T / np.sqrt(dim)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    o = (p / p.sum(axis=1, keepdims=True)) @ v.astype(np.float64)
    return {"q": q, "kt": np.ascontiguousarray(k.T), "v": v}, {"o": o.astype(np.float32)}


def mixed_scaled_matmul(rng, rows=128):
    x = rng.standard_normal((rows, 64)).astype(np.float32)
    w = rng.standard_normal((64, 64)).astype(np.float16)
    # The lanes round x * 0.5 to f16 before the cube multiplies.
    a = (x * np.float32(0.5)).astype(np.float16).astype(np.float64)
    y = np.maximum(a @ w.astype(np.float64), 0.0)
    return {"x": x, "w": w}, {"y": y.astype(np.float32)}


def scale_relu(rng, size=1024):
    """examples/ascendc/scale_relu.mlir: 2 x is exact and one f32 rounding
    of 2 x + 1 is what float64 rounds to, so the golden is bit-exact."""
    x = rng.standard_normal(size).astype(np.float32)
    y = np.maximum(x.astype(np.float64) * 2 + 1, 0.0)
    return {"x": x}, {"y": y.astype(np.float32)}


def matmul_relu(rng):
    """examples/ascendc/matmul_relu.mlir: relu(x @ w + bias), f16 inputs,
    f32 accumulation."""
    x = rng.standard_normal((64, 128)).astype(np.float16)
    w = rng.standard_normal((128, 64)).astype(np.float16)
    bias = rng.standard_normal(64).astype(np.float32)
    y = np.maximum(x.astype(np.float64) @ w.astype(np.float64) + bias, 0.0)
    return {"x": x, "w": w, "bias": bias}, {"y": y.astype(np.float32)}


EXAMPLES = {
    "softmax": softmax,
    "rmsnorm": rmsnorm,
    "layernorm": layernorm,
    "gemm": gemm,
    "flash_attention": flash_attention,
    "mixed_scaled_matmul": mixed_scaled_matmul,
    "scale_relu": scale_relu,
    "matmul_relu": matmul_relu,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("example", choices=sorted(EXAMPLES))
    parser.add_argument("outdir")
    parser.add_argument("sizes", nargs="*", type=int,
                        help="rows for the row-wise kernels and "
                             "mixed_scaled_matmul, M K N for gemm, the "
                             "sequence length and head dimension (default 64) "
                             "for flash_attention")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    inputs, outputs = EXAMPLES[args.example](np.random.default_rng(args.seed),
                                             *args.sizes)
    for name, array in inputs.items():
        np.save(os.path.join(args.outdir, name + ".npy"), array)
    for name, array in outputs.items():
        np.save(os.path.join(args.outdir, "expected_" + name + ".npy"), array)


if __name__ == "__main__":
    main()
