"""Flash-attention forward for one head (head dimension 128) as fast
kernels write it: a mixed group per 64-row query block, the matmuls on the
cube core and the online softmax on the two vector lanes (32 rows each).
Keys go in blocks of `kblock`. Three cross-core pipes of `slots` slots carry
S (cube -> lanes), P (lanes -> cube) and P V (cube -> lanes); with
`lookahead` the cube computes the next block's S before it waits for this
block's P. The Python form of examples/flash_attention_mixed.mlir (the same
IR at the defaults).
"""
from __future__ import annotations

import math

import tilekit.lang as tk

F32_MIN = -3.4028234663852886e38
D = 128

Q = tk.tensor((None, D), tk.f16)
KT = tk.tensor((D, None), tk.f16)
O = tk.tensor((None, D), tk.f32)


@tk.aic
def fa_block_aic(q: Q, kt: KT, v: Q, o: O, q0: tk.index, qv: tk.index, *, block=64,
                 kblock=64, slots=2, lookahead=True):
    half = block // 2
    tk.aic_initialize_pipe(0, "to_aiv", slot_size=half * kblock * 4, slot_num=slots)
    tk.aic_initialize_pipe(1, "to_aic", slot_size=half * kblock * 2, slot_num=slots)
    tk.aic_initialize_pipe(2, "to_aiv", slot_size=half * D * 4, slot_num=slots)
    s_len = tk.dim(kt, 1)
    q1 = tk.load(q, [q0, 0], valid=[qv, D], shape=(block, D), space="mat")
    ql = tk.move(q1, space="left")

    # With lookahead the cube computes the next key block's S before it
    # waits for this block's P (the .mlir example); without it, S of each
    # block just before its P V, which leaves room in L0B for larger blocks.
    if lookahead:
        kv0 = tk.minui(s_len, kblock)
        kt0 = tk.load(kt, [0, 0], valid=[D, kv0], shape=(D, kblock), space="mat")
        s0 = tk.matmul(ql, tk.move(kt0, space="right"))
        tk.tpush_to_aiv(s0, 1, pipe=0)

    for k0 in tk.range(0, s_len, kblock):
        if lookahead:
            next = k0 + kblock
            if tk.cmpi("ult", next, s_len):
                nv = tk.minui(s_len - next, kblock)
                kt1 = tk.load(kt, [0, next], valid=[D, nv], shape=(D, kblock), space="mat")
                s = tk.matmul(ql, tk.move(kt1, space="right"))
                tk.tpush_to_aiv(s, 1, pipe=0)
        else:
            nv = tk.minui(s_len - k0, kblock)
            kt1 = tk.load(kt, [0, k0], valid=[D, nv], shape=(D, kblock), space="mat")
            s = tk.matmul(ql, tk.move(kt1, space="right"))
            tk.tpush_to_aiv(s, 1, pipe=0)
        kv = tk.minui(s_len - k0, kblock)
        p1 = tk.tpop_from_aiv(1, pipe=1, result=tk.tile((block, kblock), tk.f16, "mat"))
        pl = tk.move(p1, space="left")
        v1 = tk.load(v, [k0, 0], valid=[kv, D], shape=(kblock, D), space="mat")
        pv = tk.matmul(pl, tk.move(v1, space="right"))
        tk.tpush_to_aiv(pv, 1, pipe=2)


@tk.aiv(split=1)
def fa_block_aiv(q: Q, kt: KT, v: Q, o: O, q0: tk.index, qv: tk.index, *, block=64,
                 kblock=64, slots=2, lookahead=True):
    half = block // 2
    scale = tk.constant(1 / math.sqrt(D), tk.f32)
    neg_big = tk.constant(F32_MIN, tk.f32)
    zero = tk.constant(0.0, tk.f32)
    tk.aiv_initialize_pipe(0, "to_aiv", slot_size=half * kblock * 4, slot_num=slots)
    tk.aiv_initialize_pipe(1, "to_aic", slot_size=half * kblock * 2, slot_num=slots)
    tk.aiv_initialize_pipe(2, "to_aiv", slot_size=half * D * 4, slot_num=slots)
    s_len = tk.dim(kt, 1)
    m = tk.full(neg_big, (half, 1), tk.f32)
    l = tk.full(zero, (half, 1), tk.f32)  # noqa: E741 - the paper's name
    acc = tk.full(zero, (half, D), tk.f32)
    lane_row = tk.get_subblock_idx() * half
    rows_left = qv - lane_row
    q_rows = tk.minimum(tk.maximum(rows_left, 0), half)

    for k0 in tk.range(0, s_len, kblock):
        kv = tk.minui(s_len - k0, kblock)
        s = tk.tpop_from_aic(1, pipe=0, result=tk.tile((half, kblock), tk.f32))
        s_valid = tk.set_validshape(s * scale, [q_rows, kv])
        s_masked = tk.fillpad(s_valid, "min")
        m_old = m
        m = tk.max(m_old, tk.row_max(s_masked))
        p = tk.row_expand_expdif(s_masked, m)
        alpha = tk.exp(m_old - m)
        p_sum = tk.row_sum(p)
        l = l * alpha + p_sum  # noqa: E741
        p16 = tk.cast(p, dtype=tk.f16, round="rint")
        tk.tpush_to_aic(tk.set_validshape(p16, [half, kv]), 1, pipe=1)
        pv = tk.tpop_from_aic(1, pipe=2, result=tk.tile((half, D), tk.f32))
        acc = tk.row_expand_mul(acc, alpha) + pv

    row = q0 + lane_row
    if tk.cmpi("sgt", qv, lane_row):
        rows = tk.minui(rows_left, half)
        o_rows = tk.set_validshape(tk.row_expand_div(acc, l), [rows, D])
        tk.store(o_rows, o, [row, 0])


fa_block = tk.group("fa_block", aic=fa_block_aic, aiv=fa_block_aiv, split=1)


@tk.orchestration
def attention(q: Q, kt: KT, v: Q, o: O, *, block=64, kblock=64, slots=2,
                 lookahead=True):
    s = tk.dim(q, 0)
    for q0 in tk.range(0, s, block):
        qv = tk.minui(s - q0, block)
        fa_block(q, kt, v, o, q0, qv, block=block, kblock=kblock, slots=slots,
                 lookahead=lookahead)
    return o


if __name__ == "__main__":
    print(tk.build(attention).mlir())
