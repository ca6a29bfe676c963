"""Row-wise softmax of an M x 128 f32 matrix, `tile` rows per tile: the
Python form of examples/softmax.mlir (the same IR at tile=16).

    y[i, :] = exp(x[i, :] - max_j x[i, j]) / sum_j exp(x[i, j] - max_j x[i, j])
"""
from __future__ import annotations

import tilekit.lang as tk

Rows = tk.tensor((None, 128), tk.f32)


@tk.incore
def softmax_tile(x: Rows, y: Rows, row: tk.index, rows: tk.index, *, tile=16):
    t = tk.load(x, [row, 0], valid=[rows, 128], shape=(tile, 128))
    max = tk.row_max(t)
    e = tk.row_expand_expdif(t, max)
    sum = tk.row_sum(e)
    p = tk.row_expand_div(e, sum)
    return tk.store(p, y, [row, 0])


@tk.orchestration
def softmax(x: Rows, y: Rows, *, tile=16):
    m = tk.dim(x, 0)
    for row in tk.range(0, m, tile):
        rows = tk.minui(m - row, tile)
        y = softmax_tile(x, y, row, rows, tile=tile)
    return y


if __name__ == "__main__":
    print(tk.build(softmax).mlir())
