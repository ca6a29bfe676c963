"""tilekit.tune: every variant timed by its compiled trace producer, the
refusals named (memory, compile), the choice equal to the fastest variant
timed one by one, a wrong variant caught by verification, the cache, Dask.
Run by ctest (`python`)."""

from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest

import tilekit
import tilekit.lang as tk

SOURCE = os.environ["TILEKIT_SOURCE_DIR"]
TILEKIT = os.environ["TILEKIT_BIN"]
N = 1024
DIMS = {"a": (N, N), "b": (N, N), "c": (N, N)}


@tk.incore
def gemm_block(a: tk.tensor((None, None), dtype), b: tk.tensor((None, None), dtype),
               c: tk.tensor((None, None), tk.f32), m0: tk.index, n0: tk.index, mv: tk.index,
               nv: tk.index, *, bm=64, bn=64, bk=32, dtype="f16", skip_last=False):
    k = tk.dim(a, 1)
    acc = tk.create(result=tk.tile((bm, bn), tk.f32, "acc"))
    steps = k - bk if skip_last else k  # skip_last: a fast, wrong variant
    for k0 in tk.range(0, steps, bk):
        kv = tk.minui(k - k0, bk)
        a1 = tk.load(a, [m0, k0], valid=[mv, kv], shape=(bm, bk), space="mat")
        b1 = tk.load(b, [k0, n0], valid=[kv, nv], shape=(bk, bn), space="mat")
        first = tk.cmpi("eq", k0, 0)
        acc = tk.matmul_acc(acc, tk.move(a1, space="left"), tk.move(b1, space="right"),
                            init_cond=first)
    return tk.store(tk.set_validshape(acc, [mv, nv]), c, [m0, n0])


@tk.orchestration
def gemm(a: tk.tensor((None, None), dtype), b: tk.tensor((None, None), dtype),
         c: tk.tensor((None, None), tk.f32), *, bm=64, bn=64, bk=32, dtype="f16",
         skip_last=False):
    m = tk.dim(a, 0)
    n = tk.dim(b, 1)
    for m0 in tk.range(0, m, bm):
        mv = tk.minui(m - m0, bm)
        for n0 in tk.range(0, n, bn):
            nv = tk.minui(n - n0, bn)
            c = gemm_block(a, b, c, m0, n0, mv, nv, bm=bm, bn=bn, bk=bk, dtype=dtype,
                           skip_last=skip_last)
    return c


def small_inputs():
    rng = np.random.default_rng(7)
    return {"a": rng.standard_normal((70, 200)).astype(np.float16),
            "b": rng.standard_normal((200, 90)).astype(np.float16),
            "c": np.zeros((70, 90), np.float32)}


def test_tune_picks_the_fastest_variant_and_names_each_refusal(tmp_path):
    space = [dict(bm=128, bn=128, bk=bk) for bk in (32, 64, 128)]
    space += [dict(bm=256, bn=256, bk=32),               # L0C holds 128 KiB
              dict(bm=128, bn=128, bk=32, dtype="f32")]  # f32 right tiles do not compile
    report = tmp_path / "best.html"
    result = tilekit.tune(gemm, space, DIMS, cache_dir=tmp_path / "cache", report=report,
                          baseline=space[0],
                          verify_inputs=small_inputs())
    rows = {json.dumps(r["params"], sort_keys=True): r for r in result.rows}
    memory = rows[json.dumps(dict(bm=256, bn=256, bk=32), sort_keys=True)]
    assert (memory["status"], memory["refused"]) == ("refused", "memory")
    assert "bytes of l0c" in memory["reason"]
    compiled = rows[json.dumps(dict(bm=128, bn=128, bk=32, dtype="f32"), sort_keys=True)]
    assert (compiled["status"], compiled["refused"]) == ("refused", "compile")
    assert "4-byte elements into L0B" in compiled["reason"]
    # The choice is the fastest variant as tilekit.sim times each alone.
    alone = {}
    for params in space[:3]:
        alone[params["bk"]] = tilekit.sim(tk.build(gemm, **params), producer="compiled",
                                          dims=DIMS, arch="c220")["cycles"]
        assert rows[json.dumps(params, sort_keys=True)]["cycles"] == alone[params["bk"]]
    assert result.best == dict(bm=128, bn=128, bk=min(alone, key=alone.get))
    # Deeper K steps move the same bytes in fewer, larger DMAs: faster.
    assert alone[128] < alone[64] < alone[32]
    assert result.speedup == pytest.approx(alone[32] / alone[128])
    assert [r["status"] for r in result.rows] == ["timed"] * 3 + ["refused"] * 2
    assert all(r["verified"] for r in result.rows[:3])
    assert "<html" in report.read_text()[:200].lower()
    table = result.table()
    assert "* bm=128, bn=128, bk=128" in table and "refused (memory)" in table
    assert "refused (compile)" in table


def test_verification_rejects_a_fast_wrong_variant(tmp_path):
    space = [dict(bm=128, bn=128, bk=64), dict(bm=128, bn=128, bk=64, skip_last=True)]
    unverified = tilekit.tune(gemm, space, DIMS, cache_dir=tmp_path)
    assert unverified.best == space[1]  # skipping a K step is faster...
    verified = tilekit.tune(gemm, space, DIMS, cache_dir=tmp_path, verify_inputs=small_inputs())
    wrong = next(r for r in verified.rows if r["params"] == space[1])
    assert wrong["verified"] is False and "differs" in wrong["mismatch"]
    assert verified.best == space[0]  # ...and wrong
    # Against a reference of one's own (NumPy's product) as well.
    def reference(inputs):
        product = inputs["a"].astype(np.float32) @ inputs["b"].astype(np.float32)
        return {"result": product}
    with_numpy = tilekit.tune(gemm, space, DIMS, cache_dir=tmp_path,
                              verify_inputs=small_inputs(), reference=reference,
                              tolerance=(1e-3, 1e-3))
    assert with_numpy.best == space[0]


def test_timings_are_cached_by_kernel_and_machine(tmp_path):
    space = [dict(bk=32), dict(bk=64)]
    first = tilekit.tune(gemm, space, DIMS, cache_dir=tmp_path)
    assert not any(r["cached"] for r in first.rows)
    again = tilekit.tune(gemm, space, DIMS, cache_dir=tmp_path)
    assert all(r["cached"] for r in again.rows)
    assert [r["cycles"] for r in again.rows] == [r["cycles"] for r in first.rows]
    # Another machine config is another key.
    other = os.path.join(SOURCE, "configs", "ascend950.json")
    elsewhere = tilekit.tune(gemm, space, DIMS, cache_dir=tmp_path, config=other, arch="c310")
    assert not any(r["cached"] for r in elsewhere.rows)
    assert len(os.listdir(tmp_path)) == 4


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # tornado, inside Dask
def test_variants_run_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            space = [dict(bk=32), dict(bk=64)]
            on_dask = tilekit.tune(gemm, space, {"a": (256, 256), "b": (256, 256),
                                                 "c": (256, 256)}, executor=client,
                                   cache=False)
    local = tilekit.tune(gemm, space, {"a": (256, 256), "b": (256, 256), "c": (256, 256)},
                         cache=False, workers=1)
    assert [(r["params"], r["cycles"]) for r in on_dask.rows] == \
        [(r["params"], r["cycles"]) for r in local.rows]


def test_the_command_tunes_a_python_kernel(tmp_path):
    out = subprocess.run(
        [TILEKIT, "tune", os.path.join(SOURCE, "examples", "python", "softmax.py") + ":softmax",
         "--space", "tile=8,16,32", "--dims", "x=4096x128,y=4096x128", "--json",
         "-o", str(tmp_path / "best.mlir")],
        check=True, capture_output=True, text=True, env=dict(os.environ)).stdout
    result = json.loads(out)
    timed = [v for v in result["variants"] if v["status"] == "timed"]
    assert sorted(v["params"]["tile"] for v in timed) == [8, 16, 32]
    assert result["best"] == timed[0]["params"]
    assert result["machine"] and result["baseline"] == {"tile": 16}  # as written
    best = (tmp_path / "best.mlir").read_text()
    assert "!pto.tile<%dx128xf32, vec>" % result["best"]["tile"] in best
    bad = subprocess.run([TILEKIT, "tune", "nowhere.py:f", "--dims", "x=1x1"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "nowhere.py" in bad.stderr
    softmax = os.path.join(SOURCE, "examples", "python", "softmax.py") + ":softmax"
    for option, message in ((["--dims", "x=4096xq"], "--dims: expected NAME=AxB"),
                            (["--dims", "x=8x128", "--tolerance", "1e-3"],
                             "--tolerance: expected RTOL,ATOL")):
        bad = subprocess.run([TILEKIT, "tune", softmax, *option], capture_output=True,
                             text=True)
        assert bad.returncode == 2 and message in bad.stderr, bad.stderr
