"""RMS normalization of an M x 256 f32 matrix, `tile` rows per tile: the
Python form of examples/rmsnorm.mlir (the same IR at tile=8).

    y[i, :] = x[i, :] / sqrt(mean_j x[i, j]^2 + 1e-6) * gamma
"""
from __future__ import annotations

import tilekit.lang as tk

Rows = tk.tensor((None, 256), tk.f32)


@tk.incore
def rmsnorm_tile(x: Rows, gamma: tk.tensor((1, 256), tk.f32), y: Rows, row: tk.index,
                 rows: tk.index, *, tile=8):
    t = tk.load(x, [row, 0], valid=[rows, 256], shape=(tile, 256))
    g = tk.load(gamma, [0, 0], shape=(1, 256))
    ss = tk.row_sum(t * t)
    var = ss * (1 / 256) + 1e-6
    n = tk.row_expand_mul(t, tk.rsqrt(var))
    return tk.store(tk.col_expand_mul(n, g), y, [row, 0])


@tk.orchestration
def rmsnorm(x: Rows, gamma: tk.tensor((1, 256), tk.f32), y: Rows, *, tile=8):
    m = tk.dim(x, 0)
    for row in tk.range(0, m, tile):
        rows = tk.minui(m - row, tile)
        y = rmsnorm_tile(x, gamma, y, row, rows, tile=tile)
    return y


if __name__ == "__main__":
    print(tk.build(rmsnorm).mlir())
