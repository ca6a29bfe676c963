"""The Python module against the command line: the same kernel and inputs
give the same bits, the same report, the same code; failures raise with
their location. Run by ctest (`python`) with PYTHONPATH=build/python."""

import json
import os
import shutil
import subprocess
import threading

import numpy as np
import pytest

import tilekit

SOURCE = os.environ["TILEKIT_SOURCE_DIR"]
TILEKIT = os.environ["TILEKIT_BIN"]
EXAMPLES = os.path.join(SOURCE, "examples")


def example(name):
    return os.path.join(EXAMPLES, name)


def cli(*args):
    return subprocess.run([TILEKIT, *args], check=True, capture_output=True, text=True).stdout


def cli_outputs(tmp_path, kernel, inputs, names, extra=()):
    """Runs `tilekit run` with the arrays saved as .npy files; its outputs."""
    args = ["run", kernel, *extra]
    for name, array in inputs.items():
        path = tmp_path / ("in_%s.npy" % name)
        np.save(path, array)
        args += ["--input", "%s=%s" % (name, path)]
    for name in names:
        args += ["--output", "%s=%s" % (name, tmp_path / ("out_%s.npy" % name))]
    cli(*args)
    return {name: np.load(tmp_path / ("out_%s.npy" % name)) for name in names}


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("rows", [1, 20, 37])
def test_run_equals_the_command_line_bit_for_bit(tmp_path, rows):
    rng = np.random.default_rng(rows)
    inputs = {"x": rng.standard_normal((rows, 128), dtype=np.float32),
              "y": np.zeros((rows, 128), np.float32)}
    got = tilekit.run(example("softmax.mlir"), inputs)
    want = cli_outputs(tmp_path, example("softmax.mlir"), inputs, ["y"])
    assert same_bits(got["y"], want["y"])
    # The inputs the caller passed are not written.
    assert not inputs["y"].any()


def test_f16_arrays_stay_float16(tmp_path):
    rng = np.random.default_rng(5)
    inputs = {"x": rng.standard_normal((45, 128)).astype(np.float16),
              "gamma": rng.standard_normal((1, 128), dtype=np.float32),
              "beta": rng.standard_normal((1, 128), dtype=np.float32),
              "y": np.zeros((45, 128), np.float16)}
    got = tilekit.run(example("layernorm.mlir"), inputs)
    assert got["y"].dtype == np.float16
    want = cli_outputs(tmp_path, example("layernorm.mlir"), inputs, ["y"])
    assert same_bits(got["y"], want["y"])


def test_command_line_sources_and_non_contiguous_arrays(tmp_path):
    # A transposed view is taken in C order, as NumPy sees it.
    x = np.asfortranarray(np.random.default_rng(1).standard_normal((20, 128), dtype=np.float32))
    got = tilekit.run(example("softmax.mlir"), {"x": x, "y": "zeros:20x128:f32"})
    want = tilekit.run(example("softmax.mlir"), {"x": np.ascontiguousarray(x),
                                                 "y": np.zeros((20, 128), np.float32)})
    assert same_bits(got["y"], want["y"])
    # rand: gives what the command line's rand: gives.
    seeded = tilekit.run(example("softmax.mlir"), {"x": "rand:20x128:f32:7", "y": "zeros:20x128:f32"})
    out = tmp_path / "y.npy"
    cli("run", example("softmax.mlir"), "--input", "x=rand:20x128:f32:7",
        "--input", "y=zeros:20x128:f32", "--output", "y=%s" % out)
    assert same_bits(seeded["y"], np.load(out))


def test_sim_report_equals_sim_json(tmp_path):
    x = np.random.default_rng(2).standard_normal((100, 128), dtype=np.float32)
    report = tilekit.sim(example("softmax.mlir"), {"x": x, "y": np.zeros_like(x)})
    np.save(tmp_path / "x.npy", x)
    want = json.loads(cli("sim", example("softmax.mlir"), "--json",
                          "--input", "x=%s" % (tmp_path / "x.npy"),
                          "--input", "y=zeros:100x128:f32"))
    assert report == want
    assert report["cycles"] > 0


def test_sim_timeline_and_lines():
    inputs = {"a": "rand:64x32:f16", "b": "rand:32x64:f16", "c": "zeros:64x64:f32"}
    report, timeline = tilekit.sim(example("gemm.mlir"), inputs, timeline=True, by_line=True)
    assert report["lines"], "by_line gives cycles per source line"
    assert any(event.get("ph") == "X" for event in timeline["traceEvents"])
    # Timing is deterministic.
    assert tilekit.sim(example("gemm.mlir"), inputs)["cycles"] == report["cycles"]


def test_sim_html_report(tmp_path):
    inputs = {"a": "rand:64x32:f16", "b": "rand:32x64:f16", "c": "zeros:64x64:f32"}
    report = tilekit.sim(example("gemm.mlir"), inputs, html_report=tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    assert "<h1>%d cycles on" % report["cycles"] in page and "gemm.mlir</h3>" in page


def test_emit_torch_equals_tilekit_emit():
    assert tilekit.emit_torch(example("rmsnorm.mlir")) == cli("emit", "--target=torch", example("rmsnorm.mlir"))


@pytest.mark.parametrize("arch", ["c220", "c310"])
def test_compile_equals_tilekit_compile(arch):
    code = tilekit.compile(example("softmax.mlir"), arch=arch)
    want = cli("compile", example("softmax.mlir"), "--arch=" + arch, "--emit=cpp")
    # The first line says which command generated it.
    assert code.splitlines()[1:] == want.splitlines()[1:]
    ir = tilekit.compile(example("softmax.mlir"), arch=arch, emit="mlir")
    assert "ascendc." in ir and "pto.tile." not in ir


CROSS_CORE = os.path.join(os.environ["TILEKIT_SOURCE_DIR"], "test", "Interp", "cross-core.mlir")


@pytest.mark.parametrize("kernel, options, flags", [
    (example("softmax.mlir"), {"emit": "mlir"}, ["--arch=c220"]),
    (example("gemm.mlir"), {"emit": "mlir", "arch": "c310", "lower_to_l0": True},
     ["--arch=c310", "--lower-to-l0"]),
    (example("softmax.mlir"), {"emit": "mlir", "stop_after": "ascendc-allocate-tensor"},
     ["--arch=c220", "--stop-after=ascendc-allocate-tensor"]),
    # (Its 16-byte L1 rows have no C++: the pipeline's IR, through its last
    # pass.)
    (CROSS_CORE, {"emit": "mlir", "entry": "run_up_down", "stop_after": "ascendc-form-launch"},
     ["--arch=c220", "--entry=run_up_down", "--stop-after=ascendc-form-launch"]),
    (example("mixed_scaled_matmul.mlir"), {"emit": "trace-producer"}, ["--emit=trace-producer"]),
])
def test_compile_options_equal_the_commands(kernel, options, flags):
    assert tilekit.compile(kernel, **options) == cli("compile", kernel, *flags)


def test_compile_refuses_a_pass_the_pipeline_lacks():
    with pytest.raises(tilekit.Error, match="stop_after='no-such-pass'"):
        tilekit.compile(example("softmax.mlir"), emit="mlir", stop_after="no-such-pass")
    with pytest.raises(tilekit.Error, match="only with emit='mlir'"):
        tilekit.compile(example("softmax.mlir"), stop_after="ascendc-allocate-tensor")


needs_clang = pytest.mark.skipif(shutil.which("clang++-22") is None,
                                 reason="compiled producers build with clang++-22")


@pytest.fixture(scope="module")
def build_cache(tmp_path_factory):
    """A cache of built producers of this module's own."""
    old = os.environ.get("TILEKIT_CACHE_DIR")
    os.environ["TILEKIT_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    yield os.environ["TILEKIT_CACHE_DIR"]
    if old is None:
        del os.environ["TILEKIT_CACHE_DIR"]
    else:
        os.environ["TILEKIT_CACHE_DIR"] = old


@needs_clang
@pytest.mark.parametrize("n", [64, 200])
def test_compiled_producer_equals_the_command_and_the_executor(build_cache, n):
    kernel = example("gemm.mlir")
    report = tilekit.sim(kernel, producer="compiled",
                         dims={"a": (n, n), "b": "%dx%d" % (n, n), "c": [n, n]})
    shapes = "a={0}x{0},b={0}x{0},c={0}x{0}".format(n)
    assert report == json.loads(cli("sim", kernel, "--producer=compiled", "--dims", shapes, "--json"))
    # Shapes from arrays, and the same cycles as the executor's trace.
    arrays = {"a": np.zeros((n, n), np.float16), "b": np.zeros((n, n), np.float16),
              "c": np.zeros((n, n), np.float32)}
    assert tilekit.sim(kernel, arrays, producer="compiled") == report
    assert tilekit.sim(kernel, arrays)["cycles"] == report["cycles"]
    # Shapes from the command line's sources too.
    sources = {"a": "rand:%dx%d:f16" % (n, n), "b": "zeros:%dx%d:f16" % (n, n),
               "c": "zeros:%dx%d:f32" % (n, n)}
    assert tilekit.sim(kernel, sources, producer="compiled") == report


TENSOR_MATMULS = os.path.join(SOURCE, "test", "Conversion", "Inputs",
                              "tensor_matmul_transposed.mlir")


@needs_clang
def test_compiled_producer_plans_the_orchestrations_kernels(build_cache):
    # The orchestration's matmuls become kernels before memory is planned,
    # as `tilekit sim` does: the command's report, to the cycle.
    report = tilekit.sim(TENSOR_MATMULS, producer="compiled",
                         dims={"a": (20, 300), "b": (300, 48)}, scalars={"k": 3})
    assert report == json.loads(cli("sim", TENSOR_MATMULS, "--producer=compiled",
                                    "--dims", "a=20x300,b=300x48", "--scalar", "k=3",
                                    "--json"))
    assert report["cycles"] == json.loads(cli(
        "sim", TENSOR_MATMULS, "--json", "--input", "k=3",
        *[arg for name, spec in [
            ("p", "600x37:f16"), ("r", "600x100:f16"), ("u", "2x20x72:f16"),
            ("v", "2x64x72:f16"), ("g", "24x100:i8"), ("h", "40x100:i8"),
            ("x", "40x24:bf16"), ("y", "32x40:bf16"), ("a", "20x300:f16"),
            ("b", "300x48:f16"), ("q", "37x100:f32"), ("z", "2x20x64:f32"),
            ("t", "24x40:i32"), ("w", "24x32:f32"), ("d", "20x48:f32"),
            ("c", "24x40:i32"), ("e", "24x40:i32"), ("f", "24x40:i32")]
          for arg in ("--input", "%s=zeros:%s" % (name, spec))]))["cycles"]


TENSOR_DYNAMIC = os.path.join(os.environ["TILEKIT_SOURCE_DIR"], "test", "Conversion", "Inputs",
                              "tensor_dynamic.mlir")


@needs_clang
def test_sim_times_the_orchestrations_kernels_with_either_producer(build_cache):
    # The orchestration's data ops on tensors of run-time shape are timed as
    # the kernels compile writes for them, with the executor's producer as
    # with the compiled one, and as the command times them.
    inputs = {"x": np.full((37, 45), 0.5, np.float32), "a": np.ones((300, 64), np.float16),
              "b": np.ones((300, 48), np.float16), "n": 13,
              "o": np.zeros((37, 45), np.float32), "s": np.zeros((37, 1), np.float32),
              "u": np.zeros((185, 9), np.float32), "q": np.zeros((64, 48), np.float32),
              "g": np.zeros((20, 45), np.float32)}
    executed = tilekit.sim(TENSOR_DYNAMIC, inputs)
    compiled = tilekit.sim(TENSOR_DYNAMIC, producer="compiled",
                           dims={"x": (37, 45), "a": (300, 64), "b": (300, 48),
                                 "o": (37, 45), "s": (37, 1), "u": (185, 9), "g": (20, 45)},
                           scalars={"n": 13})
    assert executed["cycles"] == compiled["cycles"]
    assert executed["cycles"] == json.loads(cli(
        "sim", TENSOR_DYNAMIC, "--producer=compiled", "--json", "--scalar", "n=13", "--dims",
        "x=37x45,a=300x64,b=300x48,o=37x45,s=37x1,u=185x9,g=20x45"))["cycles"]


PRODUCER_KERNELS = os.path.join(os.environ["TILEKIT_SOURCE_DIR"], "test", "Timing", "Inputs",
                                "producer-kernels.mlir")


@needs_clang
def test_compiled_producer_takes_scalars(build_cache):
    report = tilekit.sim(PRODUCER_KERNELS, entry="past_end", producer="compiled",
                         dims={"x": (20, 64), "y": (20, 64)}, scalars={"at": 4})
    assert report == json.loads(cli("sim", PRODUCER_KERNELS, "--entry", "past_end",
                                    "--producer=compiled", "--dims", "x=20x64,y=20x64",
                                    "--scalar", "at=4", "--json"))
    # A number among the inputs is the scalar too.
    assert tilekit.sim(PRODUCER_KERNELS, {"at": 4}, entry="past_end", producer="compiled",
                       dims={"x": (20, 64), "y": (20, 64)}) == report
    # A fault of the producer's run names the op.
    with pytest.raises(tilekit.Error, match="'pto.tile.load' offset 20 of dimension 0"):
        tilekit.sim(PRODUCER_KERNELS, entry="past_end", producer="compiled",
                    dims={"x": (20, 64), "y": (20, 64)}, scalars={"at": 20})


@needs_clang
def test_compiled_producer_names_what_it_lacks(build_cache):
    with pytest.raises(tilekit.Error, match="needs the shape of tensor b: dims b=SHAPE"):
        tilekit.sim(example("gemm.mlir"), producer="compiled", dims={"a": (64, 64)})
    with pytest.raises(tilekit.Error, match="dims d: the kernel has no such tensor argument"):
        tilekit.sim(example("gemm.mlir"), producer="compiled",
                    dims={"a": (64, 64), "b": (64, 64), "c": (64, 64), "d": (1, 1)})
    with pytest.raises(ValueError, match="producer"):
        tilekit.sim(example("gemm.mlir"), producer="hardware")


@needs_clang
@pytest.mark.parametrize("arch", ["c220", "c310"])
def test_compiled_run_equals_the_executor_and_the_command(build_cache, tmp_path, arch):
    kernel = example("softmax.mlir")
    compiled = tmp_path / "softmax.mlir"
    compiled.write_text(tilekit.compile(kernel, arch=arch, emit="mlir"))
    x = np.random.default_rng(3).standard_normal((37, 128), dtype=np.float32)
    inputs = {"x": x, "y": np.zeros_like(x)}
    executor = tilekit.run(kernel, inputs)["y"]
    as_cpp = tilekit.run(compiled, inputs, compiled=True, verify_per_item=True)["y"]
    assert same_bits(as_cpp, executor)
    np.save(tmp_path / "x.npy", x)
    cli("run", str(compiled), "--compiled", "--input", "x=%s" % (tmp_path / "x.npy"),
        "--input", "y=zeros:37x128:f32", "--output", "y=%s" % (tmp_path / "y.npy"))
    assert same_bits(np.load(tmp_path / "y.npy"), as_cpp)


@needs_clang
def test_compiled_run_refuses_an_uncompiled_kernel(build_cache):
    with pytest.raises(tilekit.Error, match="compiled=True runs an AscendC kernel"):
        tilekit.run(example("softmax.mlir"), {"x": "rand:4x128:f32", "y": "zeros:4x128:f32"},
                    compiled=True)
    with pytest.raises(tilekit.Error, match="verify_per_item checks a compiled=True run"):
        tilekit.run(example("softmax.mlir"), {"x": "rand:4x128:f32", "y": "zeros:4x128:f32"},
                    verify_per_item=True)


@pytest.mark.parametrize("arch", ["c220", "c310"])
def test_verify_each_passes_a_sound_pipeline(arch):
    x = np.random.default_rng(5).standard_normal((20, 128), dtype=np.float32)
    inputs = {"x": x, "y": np.zeros_like(x)}
    checked = tilekit.compile(example("softmax.mlir"), arch=arch, emit="mlir", verify_each=inputs)
    assert checked == tilekit.compile(example("softmax.mlir"), arch=arch, emit="mlir")


@pytest.mark.parametrize("kind, report", [
    ("value", "output %y differs first at [0]"),
    ("race", "an earlier set of it may not have been waited for"),
])
def test_verify_each_names_the_pass_that_broke_the_kernel(kind, report):
    kernel = example(os.path.join("ascendc", "scale_relu.mlir"))
    x = np.random.default_rng(6).standard_normal(1024).astype(np.float32)
    pipeline = ("builtin.module(ascendc-c220-pipeline,"
                "func.func(test-ascendc-plant-bug{kind=%s}))" % kind)
    with pytest.raises(tilekit.PassError) as info:
        tilekit.compile(kernel, emit="mlir", pass_pipeline=pipeline,
                        verify_each={"x": x, "y": np.zeros(1024, np.float32)})
    error = info.value
    assert error.pass_name == "test-ascendc-plant-bug"
    assert report in error.report and report in str(error)
    assert error.ir_before != error.ir_after and "ascendc." in error.ir_after


def test_a_bad_pass_pipeline_is_an_error():
    with pytest.raises(tilekit.Error, match="pass_pipeline: unbalanced"):
        tilekit.compile(example("softmax.mlir"), emit="mlir", pass_pipeline="builtin.module(cse")
    with pytest.raises(tilekit.Error, match="'nope' does not refer to a registered pass"):
        tilekit.compile(example("softmax.mlir"), emit="mlir", pass_pipeline="builtin.module(nope)")


def test_check_lists_functions_and_arguments():
    info = tilekit.check(example("softmax.mlir"))
    names = {f["name"]: f["arguments"] for f in info["functions"]}
    assert names["softmax"] == ["x", "y"]


@pytest.mark.parametrize("kernel", ["gemm.mlir", "softmax.mlir", "mixed_scaled_matmul.mlir"])
def test_check_equals_check_json(kernel):
    command = json.loads(cli("check", example(kernel), "--json"))
    summary = tilekit.check(example(kernel))
    assert summary["functions"] == command["functions"]
    assert any("memory" in f for f in summary["functions"])


BROKEN = """func.func @f(%x: !pto.tensor<4x4xf32>) {
  %t = pto.tile.create : !pto.tile<4x4xf32, vec>
  %u = pto.tile.add %t, %nope : !pto.tile<4x4xf32, vec>
  return
}
"""


def test_a_bad_kernel_raises_with_its_location():
    with pytest.raises(tilekit.Error) as info:
        tilekit.check(BROKEN)
    error = info.value
    assert (error.file, error.line) == ("<string>", 3)
    assert error.column > 0 and "undeclared SSA value" in error.message
    assert not isinstance(error, tilekit.DeadlockError)


def test_bad_inputs_raise_naming_the_argument():
    with pytest.raises(tilekit.Error, match="float32|f32"):
        tilekit.run(example("softmax.mlir"), {"x": np.zeros((2, 128), np.float64),
                                              "y": np.zeros((2, 128), np.float32)})
    with pytest.raises(tilekit.Error, match="needs a value"):
        tilekit.run(example("softmax.mlir"), {"x": np.zeros((2, 128), np.float32)})
    with pytest.raises(tilekit.Error, match="has no argument %z"):
        tilekit.run(example("softmax.mlir"), {"z": 1})
    with pytest.raises(tilekit.Error, match="does not fit"):
        tilekit.run(example("softmax.mlir"), {"x": np.zeros((2, 64), np.float32),
                                              "y": np.zeros((2, 64), np.float32)})


def test_a_deadlock_raises_with_its_waiters():
    kernel = os.path.join(SOURCE, "test", "Interp", "cross-core-errors.mlir")
    with pytest.raises(tilekit.DeadlockError) as info:
        tilekit.run(kernel, entry="run_unpaired")
    assert "deadlock" in info.value.message
    waiters = info.value.waiters
    assert len(waiters) == 2
    assert {w["op"] for w in waiters} == {"pto.tile.tpop_from_aic"}
    assert all(w["core"].startswith("@unpaired_aiv (lane ") and w["line"] > 0
               and w["file"] == kernel for w in waiters)


def test_an_ascendc_deadlock_names_both_cores():
    kernel = os.path.join(SOURCE, "test", "Interp", "Inputs", "mixed_handshake.mlir")
    inputs = {"x": np.ones(256, np.float32), "y": np.zeros(256, np.float32),
              "z": np.zeros(256, np.float32)}
    with pytest.raises(tilekit.DeadlockError) as info:
        tilekit.run(kernel, inputs, entry="stuck")
    waiters = sorted((w["core"], w["op"], w["line"]) for w in info.value.waiters)
    assert [(core, op) for core, op, _ in waiters] == [
        ("cube", "ascendc.cross_core_wait_flag"), ("vector", "ascendc.cross_core_wait_flag")]
    assert 41 in [line for _, _, line in waiters]


def test_the_step_limit_stalls_with_no_waiters():
    with pytest.raises(tilekit.DeadlockError) as info:
        tilekit.run(example("softmax.mlir"), {"x": "rand:20x128:f32", "y": "zeros:20x128:f32"},
                    max_steps=10)
    assert info.value.waiters == []


def test_a_runtime_error_is_not_a_deadlock():
    kernel = os.path.join(SOURCE, "test", "Interp", "cross-core-errors.mlir")
    with pytest.raises(tilekit.Error) as info:
        tilekit.run(kernel, entry="run_odd_cut")
    assert not isinstance(info.value, tilekit.DeadlockError)


def test_runs_in_threads_give_the_same_bits():
    x = np.random.default_rng(3).standard_normal((64, 128), dtype=np.float32)
    want = tilekit.run(example("softmax.mlir"), {"x": x, "y": np.zeros_like(x)})["y"]
    results = [None] * 4

    def work(i):
        results[i] = tilekit.run(example("softmax.mlir"), {"x": x, "y": np.zeros_like(x)})["y"]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(same_bits(r, want) for r in results)


COPY = """func.func @copy(%x: !pto.tensor<2x32xDT>, %y: !pto.tensor<2x32xDT>) -> !pto.tensor<2x32xDT> {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<2x32xDT> -> !pto.tile<2x32xDT, vec>
  %o = pto.tile.store %t, %y[%c0, %c0] : !pto.tile<2x32xDT, vec> -> !pto.tensor<2x32xDT>
  return %o : !pto.tensor<2x32xDT>
}
"""


@pytest.mark.parametrize("element,dtype", [("i8", np.int8), ("i32", np.int32), ("f16", np.float16)])
def test_arrays_keep_their_dtype(element, dtype):
    x = (np.arange(64) - 40).astype(dtype).reshape(2, 32)
    out = tilekit.run(COPY.replace("DT", element), {"x": x, "y": np.zeros_like(x)})
    assert same_bits(out["y"], x) and same_bits(out["result"], x)


def test_bf16_takes_float32_rounded_or_raw_bits():
    kernel = COPY.replace("DT", "bf16")
    x = np.array([1 + 2.0 ** -9, 3.0] * 32, np.float32).reshape(2, 32)
    out = tilekit.run(kernel, {"x": x, "y": np.zeros_like(x)})["y"]
    assert out.dtype == np.float32
    assert out[0, 0] == 1.0 and out[0, 1] == 3.0  # rounded to nearest even
    bits = (out.view(np.uint32) >> 16).astype(np.uint16)
    again = tilekit.run(kernel, {"x": bits, "y": np.zeros_like(x)})["y"]
    assert same_bits(again, out)


def bf16_of(f):
    bits = f.view(np.uint32)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32).view(np.float32)


# The NumPy line docs/executor.md gives for each rand: type.
NUMPY_RAND = {
    "f32": lambda s, n: np.random.RandomState(s).uniform(-1, 1, n).astype(np.float32),
    "f16": lambda s, n: np.random.RandomState(s).uniform(-1, 1, n).astype(np.float32).astype(np.float16),
    "bf16": lambda s, n: bf16_of(np.random.RandomState(s).uniform(-1, 1, n).astype(np.float32)),
    "i32": lambda s, n: np.random.RandomState(s).randint(-8, 9, n).astype(np.int32),
    "i8": lambda s, n: np.random.RandomState(s).randint(-8, 9, n).astype(np.int8),
    "ui8": lambda s, n: np.random.RandomState(s).randint(0, 17, n).astype(np.uint8),
}


@pytest.mark.parametrize("element", sorted(NUMPY_RAND))
@pytest.mark.parametrize("seed", [0, 1, 123456789, 2 ** 32 - 1])
def test_rand_inputs_are_numpys(element, seed):
    got = tilekit.run(COPY.replace("DT", element),
                      {"x": "rand:2x32:%s:%d" % (element, seed), "y": "zeros:2x32:%s" % element})["x"]
    assert same_bits(got, NUMPY_RAND[element](seed, (2, 32)))


def test_rand_seeds_stop_below_2_to_the_32():
    with pytest.raises(tilekit.Error, match="expected 0 to 4294967295"):
        tilekit.run(COPY.replace("DT", "f32"), {"x": "rand:2x32:f32:4294967296", "y": 0})


def test_arguments_are_named_by_position_too():
    x = np.random.default_rng(4).standard_normal((3, 128), dtype=np.float32)
    by_name = tilekit.run(example("softmax.mlir"), {"x": x, "y": np.zeros_like(x)})
    by_position = tilekit.run(example("softmax.mlir"), {"arg0": x, "arg1": np.zeros_like(x)})
    assert same_bits(by_name["y"], by_position["y"])


def test_compile_refuses_what_the_command_refuses(tmp_path):
    # A tile larger than UB: the capacity gate before the lowering.
    kernel = COPY.replace("2x32xDT", "256x512xf32").replace(
        "-> !pto.tensor<256x512xf32> {", "-> !pto.tensor<256x512xf32> attributes {pto.kind = #pto.kind<incore>} {")
    with pytest.raises(tilekit.Error) as info:
        tilekit.compile(kernel)
    path = tmp_path / "big.mlir"
    path.write_text(kernel)
    command = subprocess.run([TILEKIT, "compile", str(path), "--arch=c220", "--emit=cpp"],
                             capture_output=True, text=True)
    assert command.returncode == 2 and info.value.message in command.stderr
    assert "more than its capacity" in info.value.message


@pytest.mark.parametrize("timeout", [float("nan"), -1.0, float("inf"), 1e30])
def test_a_time_limit_is_finite_and_not_negative(timeout):
    # nan and -1 never fired, inf and 1e30 overflowed and fired at once.
    with pytest.raises(tilekit.Error, match="timeout .*: expected 0 or a positive number of "
                                            "seconds up to a year") as info:
        tilekit.run(example("softmax.mlir"), {"x": "rand:4x128:f32", "y": "zeros:4x128:f32"},
                    timeout=timeout)
    assert not isinstance(info.value, tilekit.DeadlockError)


def test_a_group_member_two_groups_share_compiles():
    # Erased twice, it was a use after free that killed the interpreter.
    kernel = os.path.join(SOURCE, "test", "Conversion", "Inputs", "shared_member.mlir")
    ir = tilekit.compile(kernel, arch="c310", emit="mlir", entry="run_both")
    assert "func.func @once(" in ir and "func.func @swapped(" in ir and "@add_aiv(" not in ir


@needs_clang
def test_a_compiled_deadlock_is_a_deadlock(build_cache):
    # As the executor's: DeadlockError, not Error (the command exits 3).
    kernel = os.path.join(SOURCE, "test", "Interp", "Inputs", "mixed_handshake.mlir")
    inputs = {"x": np.ones(256, np.float32), "y": np.zeros(256, np.float32),
              "z": np.zeros(256, np.float32)}
    stuck = tilekit.compile(kernel, arch="c220", emit="mlir", entry="stuck")
    with pytest.raises(tilekit.DeadlockError, match="a deadlock"):
        tilekit.run(stuck, inputs, entry="stuck", compiled=True)
    softmax = tilekit.compile(example("softmax.mlir"), arch="c310", emit="mlir")
    rows = {"x": "rand:40x128:f32:5", "y": "zeros:40x128:f32"}
    with pytest.raises(tilekit.DeadlockError, match="--max-steps 5"):
        tilekit.run(softmax, rows, compiled=True, max_steps=5)
    # Within its limits it runs as the executor does.
    assert same_bits(tilekit.run(softmax, rows, compiled=True, max_steps=10**9,
                                 timeout=600)["y"],
                     tilekit.run(example("softmax.mlir"), rows)["y"])


@needs_clang
def test_the_compiled_producer_stops_at_its_limits(build_cache):
    dims = {"a": (4096, 4096), "b": (4096, 4096), "c": (4096, 4096)}
    with pytest.raises(tilekit.DeadlockError, match="stopped after 100 trace records"):
        tilekit.sim(example("gemm.mlir"), producer="compiled", dims=dims, max_steps=100)
    with pytest.raises(tilekit.Error, match="timeout nan"):
        tilekit.sim(example("gemm.mlir"), producer="compiled", dims=dims, timeout=float("nan"))


def test_compare_two_variants(tmp_path):
    # The softmax example and its variant of 32-row tiles (the same lines):
    # each side's figures are sim's, the lines are those whose cycles
    # changed, largest change first; a kernel against itself changes none.
    source = open(example("softmax.mlir")).read()
    variant = tmp_path / "softmax32.mlir"
    variant.write_text(source.replace("16x128xf32", "32x128xf32")
                       .replace("16x1xf32", "32x1xf32")
                       .replace("%c16 = arith.constant 16", "%c16 = arith.constant 32"))
    x = np.random.default_rng(3).standard_normal((200, 128)).astype(np.float32)
    inputs = {"x": x, "y": np.zeros_like(x)}
    result = tilekit.compare(example("softmax.mlir"), variant, inputs)
    a = tilekit.sim(example("softmax.mlir"), inputs, by_line=True)
    b = tilekit.sim(variant, inputs, by_line=True)
    assert result["a"]["cycles"] == a["cycles"] and result["b"]["cycles"] == b["cycles"]
    assert result["a"]["bound"] == a["bound"] and result["b"]["bound"] == b["bound"]
    assert result["speedup"] == a["cycles"] / b["cycles"]
    assert {(p["core"], p["pipe"]) for p in result["pipes"]} == {
        (kind, pipe) for kind, pipes in a["pipes"].items() for pipe in pipes}
    changes = [abs(line["change"]) for line in result["lines"]]
    assert changes and changes == sorted(changes, reverse=True)
    for line in result["lines"]:
        assert line["change"] == line["b_cycles"] - line["a_cycles"] != 0
        assert line["location"].startswith(str(variant) + ":")
    text = tilekit.format_comparison(result)
    assert text.startswith("cycles: A %d" % a["cycles"]) and result["lines"][0]["location"] in text
    same = tilekit.compare(example("softmax.mlir"), example("softmax.mlir"), inputs)
    assert same["speedup"] == 1.0 and same["lines"] == []
