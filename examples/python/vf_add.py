"""z = x + y over the first n of 1024 f32 elements on 64-lane vector
registers: a register scope of straight-line loads, adds and masked
stores, unrolled by a Python loop as the kernel is built. The Python form
of examples/vf/add.mlir (the same IR at width=1024).
"""
from __future__ import annotations

import tilekit.lang as tk

LANES = 64
Row = tk.tensor((1, None), tk.f32)


@tk.aiv
def vf_add(x: Row, y: Row, z: Row, n: tk.index, *, width=1024, offset=32):
    xt = tk.load(x, [0, offset], valid=[1, n], shape=(1, width))
    yt = tk.load(y, [0, offset], valid=[1, n], shape=(1, width))
    zt = tk.create([1, n], result=tk.tile((1, width), tk.f32))

    def add(xs, ys, zs, ns):
        for base in range(0, width, LANES):  # a Python loop: unrolled
            s = tk.vreg_add(tk.vreg_load(xs, base), tk.vreg_load(ys, base))
            tk.vreg_store(s, zs, base, mask=tk.vreg_runtime_mask(ns, base))
        return zs

    total = tk.reg_scope(add, xt, yt, zt, n)
    return tk.store(total, z, [0, 0])


if __name__ == "__main__":
    print(tk.build(vf_add).mlir())
