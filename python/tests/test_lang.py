"""tilekit.lang: kernels written in Python build the IR of the examples,
run as the command runs them, carry their Python lines into every error
and report, and reach every PTO op family. Run by ctest (`python`)."""

import inspect
import os
import re
import runpy

import numpy as np
import pytest

import tilekit
import tilekit.lang as tk
from tilekit._mlir import ir

SOURCE = os.environ["TILEKIT_SOURCE_DIR"]
EXAMPLES = os.path.join(SOURCE, "examples")
PYTHON_EXAMPLES = os.path.join(EXAMPLES, "python")

# Each .mlir example and the Python example (entry, parameters) that builds it.
FORMS = {
    "softmax.mlir": ("softmax.py", "softmax", {}),
    "gemm.mlir": ("gemm.py", "gemm", {}),
    "rmsnorm.mlir": ("rmsnorm.py", "rmsnorm", {}),
    "layernorm.mlir": ("layernorm.py", "layernorm", {}),
    "flash_attention.mlir": ("flash_attention.py", "attention", {}),
    "flash_attention_d128.mlir": ("flash_attention.py", "attention", {"d": 128}),
    "flash_attention_mixed.mlir": ("flash_attention_mixed.py", "attention", {}),
    "flash_attention_fast.mlir": ("flash_attention_mixed.py", "attention",
                                  {"block": 128, "kblock": 128}),
    "mixed_scaled_matmul.mlir": ("mixed_scaled_matmul.py", "main", {}),
    "vf/add.mlir": ("vf_add.py", "vf_add", {}),
}


def load_example(name):
    return runpy.run_path(os.path.join(PYTHON_EXAMPLES, name))


def canonical(text):
    """The module as MLIR prints it once parsed: no SSA names, no comments."""
    return ir.Module.parse(text).to_text()


@pytest.mark.parametrize("mlir", sorted(FORMS))
def test_python_example_builds_the_mlir_example(mlir):
    script, entry, params = FORMS[mlir]
    kernel = tk.build(load_example(script)[entry], **params)
    with open(os.path.join(EXAMPLES, mlir)) as f:
        assert canonical(kernel.mlir()) == canonical(f.read())


def test_every_pto_example_has_a_python_form():
    pto = [name for name in os.listdir(EXAMPLES) if name.endswith(".mlir")]
    assert sorted(pto) == sorted(n for n in FORMS if "/" not in n)


def test_a_tile_size_is_one_parameter():
    softmax = load_example("softmax.py")["softmax"]
    x = np.random.default_rng(1).standard_normal((100, 128)).astype(np.float32)
    inputs = {"x": x, "y": np.zeros_like(x)}
    sixteen = tilekit.run(tk.build(softmax), inputs)["y"]
    # The example file and its Python form give the same bits.
    assert np.array_equal(sixteen, tilekit.run(os.path.join(EXAMPLES, "softmax.mlir"), inputs)["y"])
    big = tk.build(softmax, tile=32)
    text = big.mlir()
    assert "!pto.tile<32x128xf32, vec>" in text and "16x128" not in text
    y = tilekit.run(big, inputs)["y"]
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-6)
    # One module may hold two specializations of one function.
    @tk.orchestration
    def both(x: tk.tensor((None, 128), tk.f32), y: tk.tensor((None, 128), tk.f32)):
        tile_fn = load_example("softmax.py")["softmax_tile"]
        y = tile_fn(x, y, 0, 16, tile=16)
        return tile_fn(x, y, 16, 32, tile=32)
    both_text = tk.build(both).mlir()
    assert "func.func @softmax_tile(" in both_text and "func.func @softmax_tile_1(" in both_text


def test_the_kernel_text_reads_with_python_names():
    text = tk.build(load_example("softmax.py")["softmax"]).mlir()
    assert "func.func @softmax(%x: !pto.tensor<?x128xf32>, %y: " in text
    assert "%max = pto.tile.row_max %t" in text
    # The command line binds inputs by those names.
    located = tk.build(load_example("softmax.py")["softmax"]).mlir(locations=True)
    assert 'loc("' in located and "softmax.py" in located


def _line_of(fn, needle):
    lines, first = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if needle in line:
            return first + i, line.index(needle) + 1
    raise AssertionError(needle)


def test_a_type_error_is_raised_at_its_python_line():
    @tk.incore
    def bad(x: tk.tensor((16, 128), tk.f32), y: tk.tensor((16, 128), tk.f32)):
        t = tk.load(x, [0, 0], shape=(16, 128))
        u = tk.load(x, [0, 0], shape=(16, 64))
        return tk.store(t + u, y, [0, 0])

    with pytest.raises(tk.KernelError) as caught:
        tk.build(bad)
    line, column = _line_of(bad.fn, "t + u")
    assert (caught.value.file, caught.value.line, caught.value.column) == (__file__, line, column)
    assert "'pto.tile.add' op operands must have the same shape" in str(caught.value)


def test_a_wrong_operand_kind_names_the_op_and_line():
    @tk.incore
    def bad(x: tk.tensor((16, 128), tk.f16), y: tk.tensor((16, 16), tk.f32)):
        t = tk.load(x, [0, 0], shape=(16, 128))
        return tk.store(tk.matmul(t, t), y, [0, 0])

    with pytest.raises(tk.KernelError) as caught:
        tk.build(bad)
    assert caught.value.line == _line_of(bad.fn, "tk.matmul")[0]
    assert "lhs must be a 'left' tile" in str(caught.value)


def test_a_branch_on_an_ir_value_with_a_return_is_refused_at_its_line():
    @tk.incore
    def bad(x: tk.tensor((16, 128), tk.f32), n: tk.index):
        if n > 3:
            return x
        return x

    with pytest.raises(tk.KernelError) as caught:
        tk.build(bad)
    assert "%s:%d:" % (__file__, _line_of(bad.fn, "n > 3")[0]) in str(caught.value)
    assert "one exit" in str(caught.value)


def test_the_python_line_reaches_run_errors_and_sim_lines():
    # A tile too large for UB: found by check, located at its load.
    @tk.incore
    def huge(x: tk.tensor((1024, 1024), tk.f32), y: tk.tensor((1024, 1024), tk.f32)):
        t = tk.load(x, [0, 0], shape=(1024, 1024))
        return tk.store(t, y, [0, 0])

    with pytest.raises(tilekit.Error) as caught:
        tilekit.check(tk.build(huge))
    # At the function, with a note at the load whose tile does not fit.
    assert (caught.value.file, caught.value.line) == (__file__, huge.fn.__code__.co_firstlineno)
    assert "needs 4194304 bytes of ub" in caught.value.message
    note = caught.value.diagnostics[0]["notes"][0]
    assert (note["file"], note["line"]) == (__file__, _line_of(huge.fn, "tk.load")[0])
    # Per-line cycles point at the Python source.
    softmax = load_example("softmax.py")
    x = np.ones((64, 128), np.float32)
    report = tilekit.sim(tk.build(softmax["softmax"]), {"x": x, "y": np.zeros_like(x)},
                         by_line=True)
    lines = {(e["file"], e["line"]) for e in report["lines"]}
    path = os.path.join(PYTHON_EXAMPLES, "softmax.py")
    assert (path, _line_of(softmax["softmax_tile"].fn, "tk.row_max")[0]) in lines
    assert all(f == path for f, _ in lines)


def test_loops_carry_what_they_reassign_and_python_loops_unroll():
    @tk.incore
    def k(x: tk.tensor((8, 64), tk.f32), y: tk.tensor((8, 64), tk.f32), n: tk.index):
        acc = tk.full(0.0, (8, 64), tk.f32)
        t = tk.load(x, [0, 0], shape=(8, 64))
        for i in tk.range(0, n, 1):
            acc = acc + t
        for _ in range(2):  # Python: unrolled, adds twice more
            acc = acc + t
        if n > 5:
            acc = acc * 2.0
        return tk.store(acc, y, [0, 0])

    kernel = tk.build(k)
    text = kernel.mlir()
    assert text.count("scf.for") == 1 and text.count("scf.if") == 1
    assert text.count("pto.tile.add") == 3
    x = np.arange(8 * 64, dtype=np.float32).reshape(8, 64) / 64
    for n in (3, 6):
        y = tilekit.run(kernel, {"x": x, "y": np.zeros_like(x), "n": n})["y"]
        expect = x * (n + 2) * (2 if n > 5 else 1)
        np.testing.assert_allclose(y, expect, rtol=1e-6)


def test_a_python_value_changed_in_a_kernel_loop_is_refused():
    @tk.incore
    def k(x: tk.tensor((8, 64), tk.f32), n: tk.index):
        count = 0
        for i in tk.range(0, n, 1):
            count = count + 1
        return x

    with pytest.raises(tk.KernelError, match="count changes in a tk.range loop"):
        tk.build(k)


# One kernel per op family: each builds (the op verified at its line),
# `tilekit check` accepts it, and the op it names is the one in the IR.
F = tk.tensor((16, 64), tk.f32)
I32 = tk.tensor((16, 64), tk.i32)


def _vector_family(body):
    @tk.incore
    def kernel(x: F, y: F, xi: I32, yi: I32):
        t = tk.load(x, [0, 0], shape=(16, 64))
        u = tk.load(y, [0, 0], shape=(16, 64))
        ti = tk.load(xi, [0, 0], shape=(16, 64))
        ui = tk.load(yi, [0, 0], shape=(16, 64))
        r = body(t, u, ti, ui)
        out = yi if str(r.type).endswith("xi32, vec>") else y
        return tk.store(r, out, [0, 0])
    return kernel


def _families():
    cases = {}
    for op in ("add", "sub", "mul", "div", "max", "min"):
        cases[op] = lambda t, u, ti, ui, op=op: getattr(tk, op)(t, u)
        cases[op + "s"] = lambda t, u, ti, ui, op=op: getattr(tk, op + "s")(t, 2.0)
    for op in ("and", "or", "xor", "shl", "shr", "rem"):
        cases[op] = lambda t, u, ti, ui, op=op: getattr(tk, op)(ti, ui)
        cases[op + "s"] = lambda t, u, ti, ui, op=op: getattr(tk, op + "s")(ti, 3)
    for op in ("abs", "exp", "log", "sqrt", "rsqrt", "recip", "neg", "relu", "sigmoid",
               "tanh", "erf", "row_cumsum", "col_cumsum"):
        cases[op] = lambda t, u, ti, ui, op=op: getattr(tk, op)(t)
    cases["not"] = lambda t, u, ti, ui: getattr(tk, "not")(ti)
    for fold in ("sum", "max", "min", "prod"):
        cases["row_" + fold] = lambda t, u, ti, ui, f=fold: tk.row_expand_add(
            t, getattr(tk, "row_" + f)(t))
        cases["col_" + fold] = lambda t, u, ti, ui, f=fold: tk.col_expand_add(
            t, getattr(tk, "col_" + f)(t))
    for op in ("add", "sub", "mul", "div", "max", "min", "expdif"):
        cases["row_expand_" + op] = lambda t, u, ti, ui, op=op: getattr(
            tk, "row_expand_" + op)(t, tk.row_max(u))
        cases["col_expand_" + op] = lambda t, u, ti, ui, op=op: getattr(
            tk, "col_expand_" + op)(t, tk.col_max(u))
    cases.update({
        "row_expand": lambda t, u, ti, ui: tk.row_expand(tk.row_sum(t), shape=(16, 64)),
        "col_expand": lambda t, u, ti, ui: tk.col_expand(tk.col_sum(t), shape=(16, 64)),
        "cast": lambda t, u, ti, ui: tk.cast(tk.cast(t, dtype=tk.f16, round="rint"),
                                             dtype=tk.f32),
        "cmp": lambda t, u, ti, ui: tk.sel(tk.cmp("lt", t, u), t, u),
        "cmps": lambda t, u, ti, ui: tk.sels(tk.cmps("gt", t, 0.5), t, 0.0),
        "iota": lambda t, u, ti, ui: tk.iota(0, result=tk.tile((16, 64), tk.i32)),
        "transpose": lambda t, u, ti, ui: tk.transpose(tk.transpose(t)),
        "reshape": lambda t, u, ti, ui: tk.reshape(tk.reshape(t, shape=(32, 32)),
                                                   shape=(16, 64)),
        "slice": lambda t, u, ti, ui: tk.assemble(tk.slice(t, [0, 0], shape=(8, 64)), u, [8, 0]),
        "fillpad": lambda t, u, ti, ui: tk.fillpad(tk.set_validshape(t, [8, 64]), "zero"),
        "read": lambda t, u, ti, ui: tk.write(tk.read(t, [1, 2]), u, [0, 0]),
        "valid_dim": lambda t, u, ti, ui: tk.set_validshape(t, [tk.valid_dim(u, 0), 64]),
        "full": lambda t, u, ti, ui: tk.full(1.5, (16, 64), tk.f32),
        "create": lambda t, u, ti, ui: tk.create(result=tk.tile((16, 64), tk.f32)),
        "row_argmax": lambda t, u, ti, ui: tk.row_expand_add(t, tk.row_argmax(t)[0]),
        "row_argmin": lambda t, u, ti, ui: tk.row_expand_add(t, tk.row_argmin(t)[0]),
        "sort32": lambda t, u, ti, ui: tk.sort32(t)[0],
        "mrgsort": lambda t, u, ti, ui: tk.mrgsort(*tk.sort32(t), 32)[0],
        "gather": lambda t, u, ti, ui: tk.gather(t, tk.ands(ti, 63)),
        "scatter": lambda t, u, ti, ui: tk.scatter(t, tk.ands(ti, 63), u),
        "get_block_idx": lambda t, u, ti, ui: tk.set_validshape(
            t, [tk.get_block_num() - tk.get_block_idx() + tk.get_subblock_idx(), 64]),
        "sync": lambda t, u, ti, ui: (tk.bar_v(), tk.bar_m(), tk.bar_all(),
                                      tk.sync_src("v", "mte3", 0),
                                      tk.sync_dst("v", "mte3", 0), t)[-1],
    })
    return cases


FAMILIES = _families()


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_vector_op_family_builds_and_checks(family):
    kernel = tk.build(_vector_family(FAMILIES[family]))
    tilekit.check(kernel)
    name = {"sync": "system.sync_src"}.get(family, "tile." + family)
    assert re.search(r"pto\.%s\b" % re.escape(name), kernel.mlir())


TENSOR_FAMILIES = (["add", "sub", "mul", "div", "max", "min", "rem"]
                   + [op + "s" for op in ("add", "sub", "mul", "div", "max", "min", "rem")]
                   + ["abs", "exp", "log", "sqrt", "rsqrt", "recip", "neg", "relu",
                      "sigmoid", "tanh", "erf", "cast"]
                   + ["%s_%s" % (axis, fold) for axis in ("row", "col")
                      for fold in ("sum", "max", "min", "prod")]
                   + [op for op in ("and", "or", "xor", "shl", "shr", "not")]
                   + [op + "s" for op in ("and", "or", "xor", "shl", "shr")])


def _tensor_family(family):
    integer = family.rstrip("s") in ("and", "or", "xor", "shl", "shr", "not")
    dtype = tk.i32 if integer else tk.f32
    T = tk.tensor((8, 64), dtype)

    @tk.orchestration
    def kernel(x: T, y: T):
        if family == "cast":
            return tk.cast(tk.cast(x, dtype=tk.f16), dtype=tk.f32)
        if family.endswith("s") and family[:-1] in TENSOR_FAMILIES:
            return getattr(tk, family)(x, 3 if integer else 2.0)
        if family in ("not",) or family[:3] in ("row", "col") or family in (
                "abs", "exp", "log", "sqrt", "rsqrt", "recip", "neg", "relu", "sigmoid",
                "tanh", "erf"):
            return getattr(tk, family)(x)
        return getattr(tk, family)(x, y)
    return kernel


@pytest.mark.parametrize("family", TENSOR_FAMILIES)
def test_every_tensor_op_family_builds_and_checks(family):
    kernel = tk.build(_tensor_family(family))
    tilekit.check(kernel)
    assert re.search(r"pto\.tensor\.%s\b" % family, kernel.mlir())


def test_every_generated_pto_op_is_built_by_these_tests():
    """Each op the ODS defines is one tk.<name> away: the family kernels
    here and the Python examples build every one (a new op needs a case)."""
    from tilekit._mlir import _pto_ops_gen as generated
    ops = {cls.OPERATION_NAME for cls in vars(generated).values()
           if isinstance(cls, type) and hasattr(cls, "OPERATION_NAME")}
    texts = [tk.build(_vector_family(body)).mlir() for body in FAMILIES.values()]
    texts += [tk.build(_tensor_family(family)).mlir() for family in TENSOR_FAMILIES]
    texts += [tk.build(kernel).mlir()
              for kernel in _cube_kernels() + [_orchestrate(), registers]]
    texts += [tk.build(load_example(script)[entry], **params).mlir()
              for script, entry, params in FORMS.values()]
    built = set(re.findall(r"\b(pto\.[a-z_0-9.]+)", "".join(texts)))
    assert sorted(ops - built) == []


A16 = tk.tensor((32, 32), tk.f16)


@tk.incore
def cube(a: A16, b: A16, bias: tk.tensor((1, 32), tk.f32), c: tk.tensor((32, 32), tk.f32),
         c2: tk.tensor((32, 32), tk.f32)):
    left = tk.move(tk.load(a, [0, 0], shape=(32, 32), space="mat"), space="left")
    right = tk.move(tk.load(b, [0, 0], shape=(32, 32), space="mat"), space="right")
    bias_t = tk.move(tk.load(bias, [0, 0], shape=(1, 32), space="mat"), space="bias")
    twice = tk.matmul_acc(tk.matmul(left, right), left, right)
    c = tk.store(twice, c, [0, 0])
    return tk.store(tk.matmul_bias(left, right, bias_t), c2, [0, 0])


@tk.incore
def gemv(a: tk.tensor((1, 32), tk.f16), b: A16, c: tk.tensor((1, 32), tk.f32)):
    left = tk.move(tk.load(a, [0, 0], shape=(1, 32), space="mat"), space="left")
    right = tk.move(tk.load(b, [0, 0], shape=(32, 32), space="mat"), space="right")
    return tk.store(tk.gemv_acc(tk.gemv(left, right), left, right), c, [0, 0])


@tk.incore
def batched(a: tk.tensor((2, 16, 32), tk.f16), b: tk.tensor((2, 32, 16), tk.f16),
            c: tk.tensor((2, 16, 16), tk.f32)):
    left = tk.move(tk.load(a, [0, 0, 0], shape=(2, 16, 32), space="mat"), space="left")
    right = tk.move(tk.load(b, [0, 0, 0], shape=(2, 32, 16), space="mat"), space="right")
    return tk.store(tk.batch_matmul_acc(tk.batch_matmul(left, right), left, right),
                    c, [0, 0, 0])


def _cube_kernels():
    return [cube, gemv, batched]


def test_cube_families_run_as_numpy_computes():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((32, 32)).astype(np.float16)
    b = rng.standard_normal((32, 32)).astype(np.float16)
    bias = rng.standard_normal((1, 32)).astype(np.float32)
    out = tilekit.run(tk.build(cube), {"a": a, "b": b, "bias": bias,
                                       "c": np.zeros((32, 32), np.float32),
                                       "c2": np.zeros((32, 32), np.float32)})
    ab = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(out["c"], 2 * ab, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(out["c2"], ab + bias, rtol=1e-4, atol=1e-4)

    row = a[:1]
    out = tilekit.run(tk.build(gemv), {"a": row, "b": b, "c": np.zeros((1, 32), np.float32)})
    np.testing.assert_allclose(out["c"], 2 * (row.astype(np.float32) @ b.astype(np.float32)),
                               rtol=1e-4, atol=1e-4)

    a3 = rng.standard_normal((2, 16, 32)).astype(np.float16)
    b3 = rng.standard_normal((2, 32, 16)).astype(np.float16)
    out = tilekit.run(tk.build(batched), {"a": a3, "b": b3,
                                          "c": np.zeros((2, 16, 16), np.float32)})
    np.testing.assert_allclose(out["c"], 2 * np.matmul(a3.astype(np.float32),
                                                       b3.astype(np.float32)),
                               rtol=1e-4, atol=1e-4)


def _orchestrate():
    T = tk.tensor((None, 64), tk.f32)

    @tk.orchestration
    def orchestrate(x: T, y: T, w: tk.tensor((64, 64), tk.f16), m: T):
        a = tk.exp(x) + y
        b = tk.muls(a, 2.0) - x
        sums = tk.row_sum(b)
        widened = tk.view(x, [tk.dim(x, 0) * 2], shape=(None, 32))
        part = tk.slice(widened, [0, 0], [4, 32], shape=(4, 32))
        ones = tk.full(1.0, result=tk.tensor((4, 32), tk.f32))
        first = tk.read(sums, [0, 0])
        y = tk.write(first, b, [0, 0])
        y = tk.assemble(tk.add(part, ones), y, [4, 0])
        product = tk.matmul(tk.cast(x, dtype=tk.f16), w)
        m = tk.assemble(tk.matmul_acc(product, tk.cast(x, dtype=tk.f16), w), m, [0, 0])
        scratch = tk.create(result=tk.tensor((4, 32), tk.f32))
        y = tk.assemble(tk.add(scratch, ones) - scratch, y, [0, 32])
        return y, m
    return orchestrate


def test_orchestration_tensor_families_run_as_numpy_computes():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((8, 64)).astype(np.float32)
    y = rng.standard_normal((8, 64)).astype(np.float32)
    w = rng.standard_normal((64, 64)).astype(np.float16)
    out = tilekit.run(tk.build(_orchestrate()), {"x": x, "y": y, "w": w,
                                                 "m": np.zeros((8, 64), np.float32)})
    b = (np.exp(x) + y) * 2 - x
    expect = b.copy()
    expect[0, 0] = b[0].sum()
    expect[4:8, :32] = x.reshape(16, 32)[:4] + 1
    expect[0:4, 32:] = 1
    np.testing.assert_allclose(out["result0"], expect, rtol=1e-5, atol=1e-5)
    product = x.astype(np.float16).astype(np.float32) @ w.astype(np.float32)
    np.testing.assert_allclose(out["result1"], 2 * product, rtol=2e-3, atol=2e-3)


def test_cross_core_example_runs_from_python_as_from_its_file():
    mixed = load_example("flash_attention_mixed.py")["attention"]
    rng = np.random.default_rng(5)
    inputs = {"q": rng.standard_normal((100, 128)).astype(np.float16),
              "kt": rng.standard_normal((128, 150)).astype(np.float16),
              "v": rng.standard_normal((150, 128)).astype(np.float16),
              "o": np.zeros((100, 128), np.float32)}
    from_python = tilekit.run(tk.build(mixed), inputs)["o"]
    from_file = tilekit.run(os.path.join(EXAMPLES, "flash_attention_mixed.mlir"), inputs)["o"]
    assert np.array_equal(from_python, from_file)
    # Another slot count is one parameter, and changes only the pipes.
    three = tk.build(mixed, slots=3).mlir()
    assert three.count("slot_num 3") == 6
    assert np.array_equal(tilekit.run(tk.build(mixed, slots=3), inputs)["o"], from_file)
    # Without the look-ahead the cube computes each S just before its P V:
    # the same bits, one S matmul fewer outside the loop.
    plain = tk.build(mixed, lookahead=False)
    assert plain.mlir().count("pto.tile.matmul") == tk.build(mixed).mlir().count(
        "pto.tile.matmul") - 1
    assert np.array_equal(tilekit.run(plain, inputs)["o"], from_file)


def test_a_register_scope_builds_and_runs():
    vf_add = load_example("vf_add.py")["vf_add"]
    x = np.arange(1 + 1056, dtype=np.float32).reshape(1, -1)[:, :1056]
    y = np.ones((1, 1056), np.float32)
    out = tilekit.run(tk.build(vf_add), {"x": x, "y": y, "z": np.zeros((1, 1024), np.float32),
                                         "n": 1000})
    z = out["z"]
    np.testing.assert_array_equal(z[0, :1000], x[0, 32:1032] + 1)
    assert not z[0, 1000:].any()


@tk.aiv
def registers(x: tk.tensor((1, 128), tk.f32), z: tk.tensor((1, 128), tk.f32), s: tk.f32,
              n: tk.index):
    xt = tk.load(x, [0, 0], shape=(1, 128))
    zt = tk.full(0.0, (1, 128), tk.f32)

    def body(xs, zs, ss, ns):
        a, b = tk.vreg_load(xs, 0), tk.vreg_load(xs, 64)
        k = tk.vreg_broadcast(ss)
        r = tk.vreg_sub(tk.vreg_mul(a, k), tk.vreg_div(b, k))
        larger = tk.vreg_select(tk.vreg_cmp("gt", a, b), tk.vreg_max(a, b), tk.vreg_min(a, b))
        tk.vreg_store(r, zs, 0, mask=tk.vreg_prefix_mask(32))
        tk.vreg_store(larger, zs, 0, mask=tk.vreg_suffix_mask(32))
        tk.vreg_store(tk.vreg_add(a, b), zs, 64, mask=tk.vreg_runtime_mask(ns, 64))
        return zs

    return tk.store(tk.reg_scope(body, xt, zt, s, n), z, [0, 0])


def test_every_register_op_runs_as_numpy_computes():
    x = np.random.default_rng(6).standard_normal((1, 128)).astype(np.float32)
    z = tilekit.run(tk.build(registers), {"x": x, "z": np.zeros((1, 128), np.float32),
                                          "s": 2.0, "n": 100})["z"][0]
    a, b = x[0, :64], x[0, 64:]
    np.testing.assert_allclose(z[:32], (a * 2 - b / 2)[:32], rtol=1e-6)
    np.testing.assert_array_equal(z[32:64], a[32:])  # a > b ? max : min is a
    np.testing.assert_array_equal(z[64:100], (a + b)[:36])
    assert not z[100:].any()


def test_kernel_arguments_need_types_and_parameters_must_exist():
    @tk.incore
    def untyped(x, y: tk.tensor((8, 8), tk.f32)):
        return y

    with pytest.raises(tk.KernelError, match="argument x needs a type annotation"):
        tk.build(untyped)
    with pytest.raises(tk.KernelError, match="has no compile-time parameter blocks"):
        tk.build(load_example("softmax.py")["softmax"], blocks=3)
    with pytest.raises(tk.KernelError, match="build kernels with tilekit.lang.build"):
        tk.row_max(None)

    # A call with one argument too many is an error at the call, before the
    # callee is built.
    tile_fn = load_example("softmax.py")["softmax_tile"]

    @tk.orchestration
    def extra(x: tk.tensor((None, 128), tk.f32), y: tk.tensor((None, 128), tk.f32)):
        return tile_fn(x, y, 0, 16, 3)

    with pytest.raises(tk.KernelError, match="softmax_tile takes 4 kernel arguments, not 5"):
        tk.build(extra)
