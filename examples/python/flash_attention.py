"""Flash-attention forward for one head, head dimension `d`, on one core
kind (the P tile reaches V's matmul through a GM workspace): the Python form
of examples/flash_attention.mlir (d=64) and flash_attention_d128.mlir
(d=128). `block` query rows per call, keys in blocks of `block`.

    O = softmax(Q K^T / sqrt(d)) V
"""
from __future__ import annotations

import math

import tilekit.lang as tk

F32_MIN = -3.4028234663852886e38


@tk.incore
def attention_block(q: tk.tensor((None, d), tk.f16), kt: tk.tensor((d, None), tk.f16),
                    v: tk.tensor((None, d), tk.f16), o: tk.tensor((None, d), tk.f32),
                    ws: tk.tensor((block, block), tk.f16), q0: tk.index, qv: tk.index,
                    *, d=64, block=64):
    scale = tk.constant(1 / math.sqrt(d), tk.f32)
    neg_big = tk.constant(F32_MIN, tk.f32)
    zero = tk.constant(0.0, tk.f32)
    s_len = tk.dim(kt, 1)

    q1 = tk.load(q, [q0, 0], valid=[qv, d], shape=(block, d), space="mat")
    ql = tk.move(q1, space="left")
    m = tk.full(neg_big, (block, 1), tk.f32)
    l = tk.full(zero, (block, 1), tk.f32)  # noqa: E741 - the paper's name
    acc = tk.full(zero, (block, d), tk.f32)

    for k0 in tk.range(0, s_len, block):
        kv = tk.minui(s_len - k0, block)
        kt1 = tk.load(kt, [0, k0], valid=[d, kv], shape=(d, block), space="mat")
        s_acc = tk.matmul(ql, tk.move(kt1, space="right"))
        s = tk.move(s_acc, space="vec") * scale
        s_masked = tk.fillpad(tk.set_validshape(s, [qv, kv]), "min")

        m_old = m
        m = tk.max(m_old, tk.row_max(s_masked))
        p = tk.row_expand_expdif(s_masked, m)
        alpha = tk.exp(m_old - m)
        p_sum = tk.row_sum(p)
        l = l * alpha + p_sum  # noqa: E741

        p16 = tk.cast(p, dtype=tk.f16, round="rint")
        ws_p = tk.store(p16, ws, [0, 0])
        p1 = tk.load(ws_p, [0, 0], valid=[block, kv], shape=(block, block), space="mat")
        pl = tk.move(p1, space="left")
        v1 = tk.load(v, [k0, 0], valid=[kv, d], shape=(block, d), space="mat")
        vr = tk.move(v1, space="right")
        pv = tk.move(tk.matmul(pl, vr), space="vec")
        acc = tk.row_expand_mul(acc, alpha) + pv
        ws = ws_p

    o_norm = tk.set_validshape(tk.row_expand_div(acc, l), [qv, d])
    return tk.store(o_norm, o, [q0, 0])


@tk.orchestration
def attention(q: tk.tensor((None, d), tk.f16), kt: tk.tensor((d, None), tk.f16),
              v: tk.tensor((None, d), tk.f16), o: tk.tensor((None, d), tk.f32),
              *, d=64, block=64):
    s = tk.dim(q, 0)
    ws = tk.create(result=tk.tensor((block, block), tk.f16))
    for q0 in tk.range(0, s, block):
        qv = tk.minui(s - q0, block)
        o = attention_block(q, kt, v, o, ws, q0, qv, d=d, block=block)
    return o


if __name__ == "__main__":
    print(tk.build(attention).mlir())
