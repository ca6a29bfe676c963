"""Layer normalization of an M x 128 f16 matrix in f32, `tile` rows per
tile: the Python form of examples/layernorm.mlir (the same IR at tile=16).

    y[i, :] = (x[i, :] - mean) / sqrt(var + 1e-5) * gamma + beta
"""
from __future__ import annotations

import tilekit.lang as tk

Rows = tk.tensor((None, 128), tk.f16)
Row = tk.tensor((1, 128), tk.f32)


@tk.incore
def layernorm_tile(x: Rows, gamma: Row, beta: Row, y: Rows, row: tk.index, rows: tk.index,
                   *, tile=16):
    h = tk.load(x, [row, 0], valid=[rows, 128], shape=(tile, 128))
    t = tk.cast(h, dtype=tk.f32)
    g = tk.load(gamma, [0, 0], shape=(1, 128))
    b = tk.load(beta, [0, 0], shape=(1, 128))
    mu = tk.row_sum(t) * (1 / 128)
    d = tk.row_expand_sub(t, mu)
    var = tk.row_sum(d * d) * (1 / 128)
    rstd = tk.rsqrt(var + 1e-5)
    n = tk.row_expand_mul(d, rstd)
    nb = tk.col_expand_add(tk.col_expand_mul(n, g), b)
    o = tk.cast(nb, dtype=tk.f16, round="rint")
    return tk.store(o, y, [row, 0])


@tk.orchestration
def layernorm(x: Rows, gamma: Row, beta: Row, y: Rows, *, tile=16):
    m = tk.dim(x, 0)
    for row in tk.range(0, m, tile):
        rows = tk.minui(m - row, tile)
        y = layernorm_tile(x, gamma, beta, y, row, rows, tile=tile)
    return y


if __name__ == "__main__":
    print(tk.build(layernorm).mlir())
