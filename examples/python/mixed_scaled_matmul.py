"""y = relu((x * 0.5) W) on a mixed group: the vector lanes scale their 32
rows of x and push them to the cube as f16, the cube multiplies by W and
pushes the product back: the Python form of examples/mixed_scaled_matmul.mlir.
"""
from __future__ import annotations

import tilekit.lang as tk

X = tk.tensor((None, 64), tk.f32)
W = tk.tensor((64, 64), tk.f16)


@tk.aic
def scaled_matmul_aic(x: X, w: W, y: X, m0: tk.index):
    tk.aic_initialize_pipe(0, "both", slot_size=16384, slot_num=2)
    w1 = tk.load(w, [0, 0], shape=(64, 64), space="mat")
    wr = tk.move(w1, space="right")
    a1 = tk.tpop_from_aiv(1, result=tk.tile((64, 64), tk.f16, "mat"))
    al = tk.move(a1, space="left")
    tk.tpush_to_aiv(tk.matmul(al, wr), 1)


@tk.aiv(split=1)
def scaled_matmul_aiv(x: X, w: W, y: X, m0: tk.index):
    scale = tk.constant(0.5, tk.f32)
    tk.aiv_initialize_pipe(0, "both", slot_size=16384, slot_num=2)
    row = m0 + tk.get_subblock_idx() * 32
    t = tk.load(x, [row, 0], shape=(32, 64))
    h = tk.cast(t * scale, dtype=tk.f16, round="rint")
    tk.tpush_to_aic(h, 1)
    r = tk.tpop_from_aic(1, result=tk.tile((32, 64), tk.f32))
    tk.store(tk.relu(r), y, [row, 0])


scaled_matmul = tk.group("scaled_matmul", aic=scaled_matmul_aic, aiv=scaled_matmul_aiv,
                         split=1)


@tk.orchestration
def main(x: X, w: W, y: X):
    m = tk.dim(x, 0)
    for m0 in tk.range(0, m, 64):
        scaled_matmul(x, w, y, m0)
    return y


if __name__ == "__main__":
    print(tk.build(main).mlir())
