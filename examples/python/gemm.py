"""C = A B with f16 inputs and f32 accumulation, `block` x `block` output
blocks and `k_step`-deep slices of K: the Python form of examples/gemm.mlir
(the same IR at block=64, k_step=32)."""
from __future__ import annotations

import tilekit.lang as tk

F16 = tk.tensor((None, None), tk.f16)
F32 = tk.tensor((None, None), tk.f32)


@tk.incore
def gemm_block(a: F16, b: F16, c: F32, m0: tk.index, n0: tk.index, mv: tk.index,
               nv: tk.index, *, block=64, k_step=32):
    k = tk.dim(a, 1)
    acc = tk.create(result=tk.tile((block, block), tk.f32, "acc"))
    for k0 in tk.range(0, k, k_step):
        kv = tk.minui(k - k0, k_step)
        a1 = tk.load(a, [m0, k0], valid=[mv, kv], shape=(block, k_step), space="mat")
        b1 = tk.load(b, [k0, n0], valid=[kv, nv], shape=(k_step, block), space="mat")
        a0 = tk.move(a1, space="left")
        b0 = tk.move(b1, space="right")
        first = tk.cmpi("eq", k0, 0)
        acc = tk.matmul_acc(acc, a0, b0, init_cond=first)
    block_ = tk.set_validshape(acc, [mv, nv])
    return tk.store(block_, c, [m0, n0])


@tk.orchestration
def gemm(a: F16, b: F16, c: F32, *, block=64, k_step=32):
    m = tk.dim(a, 0)
    n = tk.dim(b, 1)
    for m0 in tk.range(0, m, block):
        mv = tk.minui(m - m0, block)
        for n0 in tk.range(0, n, block):
            nv = tk.minui(n - n0, block)
            c = gemm_block(a, b, c, m0, n0, mv, nv, block=block, k_step=k_step)
    return c


if __name__ == "__main__":
    print(tk.build(gemm).mlir())
