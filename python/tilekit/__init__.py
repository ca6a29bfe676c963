"""tilekit from Python: check, run, time, emit and compile tile kernels.

Every function takes a kernel as a path (str or os.PathLike) or as MLIR
text, does what the `tilekit` command of the same name does, and returns
Python values: NumPy arrays for tensors, a dict for reports, str for code.
A kernel that fails raises `tilekit.Error` (file, line, column, message);
one that stalls raises `tilekit.DeadlockError`, which also names the
waiters. See docs/python.md.
"""

import json
import os
import pathlib
import tempfile
import warnings

import numpy as np

from . import _native
from .compare import compare_reports, format_comparison

__all__ = ["Error", "DeadlockError", "PassError", "TilekitWarning", "check", "run", "sim",
           "compare", "format_comparison", "emit_torch", "compile", "default_config",
           "tune"]


class Error(Exception):
    """A kernel that does not parse, verify, run or compile.

    `diagnostics` holds every error as a dict (severity, file, line, column,
    message, notes); `file`, `line`, `column` and `message` are the first's.
    """

    def __init__(self, diagnostics):
        self.diagnostics = diagnostics
        first = diagnostics[0]
        self.file, self.line, self.column = first["file"], first["line"], first["column"]
        self.message = first["message"]
        super().__init__(self._text())

    def _text(self):
        lines = []
        for diag in self.diagnostics:
            lines.append(_format(diag))
            lines.extend("  " + _format(note) for note in diag.get("notes", []))
        return "\n".join(lines)


class DeadlockError(Error):
    """A kernel that stalled: a deadlock, a timeout or the step limit.

    `waiters` lists each core left waiting as a dict: "core" (a lane such as
    "@f_aiv (lane 0)", or "cube" / "vector"), "op" (the op it waits in) and
    its "file", "line", "column". A timeout or the step limit leaves none.
    """

    def __init__(self, diagnostics, waiters):
        super().__init__(diagnostics)
        self.waiters = waiters


class PassError(Error):
    """A pass of the pipeline that broke the kernel, found by
    compile(verify_each=...): the kernel run on the inputs after it no
    longer gives the outputs it gave before the pipeline, or races, or
    deadlocks.

    `pass_name` is the pass's argument, `report` what changed (the output,
    the first differing element, both values), `ir_before` and `ir_after`
    the module before and after the pass.
    """

    def __init__(self, broken):
        self.pass_name = broken["pass"]
        self.report = broken["report"]
        self.ir_before, self.ir_after = broken["before"], broken["after"]
        super().__init__([{"severity": "error", "file": "", "line": 0, "column": 0,
                           "message": "verify_each: %s broke the kernel: %s"
                           % (self.pass_name, self.report.strip()),
                           "notes": []}])


class TilekitWarning(UserWarning):
    """A warning the kernel's checks gave (a buffer more than half full...)."""


def _format(diag):
    where = "%s:%d:%d: " % (diag["file"], diag["line"], diag["column"]) if diag["file"] else ""
    return "%s%s: %s" % (where, diag["severity"], diag["message"])


def _share_dir():
    """share/tilekit of the build tree or the install prefix."""
    here = pathlib.Path(__file__).resolve().parent
    # build/python/tilekit, or PREFIX/lib/python3/dist-packages/tilekit.
    for prefix in (here.parents[1], here.parents[3]):
        share = prefix / "share" / "tilekit"
        if (share / "configs").is_dir():
            return share
    return None


def default_config():
    """The machine description used when none is given: ascend910b.json in
    share/tilekit/configs of the build tree or the install prefix, or
    $TILEKIT_CONFIG when set."""
    if os.environ.get("TILEKIT_CONFIG"):
        return os.environ["TILEKIT_CONFIG"]
    share = _share_dir()
    if share is not None and (share / "configs" / "ascend910b.json").is_file():
        return str(share / "configs" / "ascend910b.json")
    raise FileNotFoundError("no ascend910b.json beside the tilekit module; "
                            "pass config= or set TILEKIT_CONFIG")


# Compiled trace producers build against share/tilekit/runtime (this
# process's executable is Python's, not tilekit's).
if _share_dir() is not None:
    _native.set_runtime_root(str(_share_dir() / "runtime"))


def _source(kernel):
    """(source, is_text, name) of a path, of kernel text or of a kernel
    built with tilekit.lang (its text with the Python lines as locations)."""
    if hasattr(kernel, "__tilekit_source__"):
        return kernel.__tilekit_source__(), True, "<%s>" % kernel.entry
    if isinstance(kernel, os.PathLike):
        path = os.fspath(kernel)
        return path, False, path
    if not isinstance(kernel, str):
        raise TypeError("kernel: expected a path, MLIR text or a tilekit.lang kernel, not %s"
                        % type(kernel).__name__)
    if "\n" in kernel or "{" in kernel:
        return kernel, True, "<string>"
    return kernel, False, kernel


def _call(function, *args):
    try:
        result = function(*args)
    except _native.KernelFailure as failure:
        diagnostics, stalled, waiters, broken = failure.args
        if broken is not None:
            raise PassError(broken) from None
        if stalled:
            raise DeadlockError(diagnostics, waiters) from None
        raise Error(diagnostics) from None
    if isinstance(result, dict):
        for warning in result.get("warnings", []):
            warnings.warn(_format(warning), TilekitWarning, stacklevel=3)
    return result


def _settings(entry, undefined, blocks, timeout, max_steps, compiled=False,
              verify_per_item=False):
    return _native.RunSettings(entry or "", undefined, blocks, timeout, max_steps,
                               compiled, verify_per_item)


def check(kernel, *, config=None):
    """Parses and verifies the kernel and plans its memory against the
    machine's buffers. Returns what `tilekit check --json` prints for it:
    {"functions": [{"name", "kind", "arguments", "ops", "group"?,
    "memory"?}]}; warnings go through Python's warnings. Raises Error on
    the first failure."""
    result = _call(_native.check, *_source(kernel), config or default_config())
    return json.loads(result["summary"])


def run(kernel, inputs=None, *, entry=None, undefined="zero", blocks=1,
        plan_memory=False, config=None, timeout=0.0, max_steps=0, compiled=False,
        verify_per_item=False):
    """Runs the kernel in the executor, bit for bit as the machine computes.

    inputs maps argument names (`x` for `%x`) to NumPy arrays (f16 as
    float16; bf16 as float32, rounded to bf16, or its raw bits as uint16),
    numbers, or the command line's sources ("rand:64x64:f32:7",
    "zeros:64x64:f32", "x.npy"). Returns a dict of every tensor argument
    after the run and every result (`result`, or `result0`, ...).
    undefined: "zero", "nan" or "check"; timeout in seconds (0: none).

    compiled=True runs a kernel compiled by `compile(..., emit="mlir")` (or
    `tilekit compile`) as its emitted C++ against the CPU runtime, built
    with clang++-22 and cached, as `tilekit run --compiled`; host functions
    still run in the executor. verify_per_item=True also runs each work
    item in the executor and raises at the first whose outputs differ.
    """
    result = _call(_native.run, *_source(kernel), dict(inputs or {}),
                   _settings(entry, undefined, blocks, timeout, max_steps, compiled,
                             verify_per_item),
                   (config or default_config()) if plan_memory else "")
    return result["outputs"]


def _producer_arguments(inputs, dims, scalars):
    """Text per tensor shape and per scalar, as --dims and --scalar take
    them: from dims/scalars, else from the inputs (an array's shape, the
    SHAPE of "rand:SHAPE:TYPE" or "zeros:SHAPE:TYPE", an .npy file's
    shape, a number)."""
    shapes, values = {}, {}
    for name, value in (inputs or {}).items():
        if isinstance(value, np.ndarray):
            shapes[name] = value.shape
        elif isinstance(value, (int, float, np.integer, np.floating)):
            values[name] = value
        elif isinstance(value, (str, os.PathLike)):
            text = os.fspath(value)
            if text.startswith(("rand:", "zeros:")):
                shapes[name] = text.split(":")[1]
            elif text.endswith(".npy"):
                shapes[name] = np.load(text, mmap_mode="r").shape
            else:
                values[name] = text
    shapes.update(dims or {})
    values.update(scalars or {})

    def shape_text(shape):
        return shape if isinstance(shape, str) else "x".join(str(int(n)) for n in shape)

    def value_text(value):
        if isinstance(value, str):
            return value
        if isinstance(value, (float, np.floating)):
            return repr(float(value))
        return str(int(value))

    return ({name: shape_text(shape) for name, shape in shapes.items()},
            {name: value_text(value) for name, value in values.items()})


def sim(kernel, inputs=None, *, entry=None, config=None, cores=0, by_line=False,
        timeline=None, html_report=None, undefined="zero", blocks=1, timeout=0.0,
        max_steps=0, producer="interp", dims=None, scalars=None, arch=None):
    """Runs the kernel (memory planned) and times it on the modelled machine.

    Returns the report `tilekit sim --json` prints, as a dict (with
    by_line, the "lines" array of cycles per source line and pipe). With
    timeline=PATH the Chrome trace-event timeline is written there; with
    timeline=True it is returned too: (report, timeline). html_report=PATH
    writes the page `tilekit sim --report` writes.

    producer="compiled" times the kernel's compiled trace producer instead
    of running it (`tilekit sim --producer=compiled`): no data, any size.
    It takes each tensor's shape from dims ({"a": (8192, 8192)}) or from
    inputs (an array, "rand:SHAPE:TYPE", "zeros:SHAPE:TYPE", an .npy file),
    each scalar from scalars ({"n": 64}) or a number in inputs. The
    producer is built with clang++-22 once and cached.

    arch="c220" (or "c310") compiles the PTO kernel for that architecture
    first and times the compiled kernel, as `tilekit sim --arch` does.
    """
    if producer not in ("interp", "compiled"):
        raise ValueError("producer: expected 'interp' or 'compiled', not %r" % (producer,))
    compiled = producer == "compiled"
    shapes, values = _producer_arguments(inputs, dims, scalars) if compiled else ({}, {})
    path = timeline if isinstance(timeline, (str, os.PathLike)) else ""
    scratch = None
    if timeline is True:
        scratch = tempfile.TemporaryDirectory()
        path = os.path.join(scratch.name, "timeline.json")
    try:
        result = _call(_native.sim, *_source(kernel), {} if compiled else dict(inputs or {}),
                       _settings(entry, undefined, blocks, timeout, max_steps),
                       config or default_config(), cores, by_line, os.fspath(path),
                       os.fspath(html_report or ""), compiled, shapes, values, arch or "")
        report = json.loads(result["report"])
        if report.get("default_cost_ops"):
            warnings.warn(TilekitWarning(
                "%s has no cost for %s; timed with its default vector cost "
                "(docs/timing-model.md)" % (report["machine"], ", ".join(report["default_cost_ops"]))),
                stacklevel=2)
        if scratch is None:
            return report
        with open(path) as f:
            return report, json.load(f)
    finally:
        if scratch is not None:
            scratch.cleanup()


def compare(a, b, inputs=None, *, inputs_b=None, top=10, **options):
    """Times kernels a and b side by side on the modelled machine.

    Each is timed as sim(kernel, inputs, by_line=True, **options) times it
    (inputs_b for b when its inputs differ; options such as entry, config,
    producer="compiled", dims, scalars apply to both). Returns a dict: each
    kernel's cycles, bound and seconds, the speedup of b over a, the mean
    busy share of every pipe in both, and the `top` source lines whose
    cycles changed most (matched by line and column, as in two variants of
    one source). format_comparison(result) is the text to print.
    """
    report_a = sim(a, inputs, by_line=True, **options)
    report_b = sim(b, inputs if inputs_b is None else inputs_b, by_line=True, **options)
    return compare_reports(report_a, report_b, top)


def emit_torch(kernel):
    """The PyTorch script `tilekit emit` writes, as a str."""
    return _call(_native.emit_torch, *_source(kernel))


def compile(kernel, *, arch="c220", emit="cpp", entry=None, lower_to_l0=False,
            stop_after=None, config=None, verify_each=None, blocks=1,
            pass_pipeline=None):
    """Compiles the kernel as `tilekit compile` does and returns the text:

    emit="cpp": the Ascend C C++ of the kernel lowered (PTO) and run
    through the arch's AscendC pass pipeline; emit="mlir": that AscendC IR
    (stop_after=PASS stops the pipeline after that pass); emit=
    "trace-producer": the C++ trace producer `tilekit sim
    --producer=compiled` builds (no arch; memory planned against config).
    config (a machine config's path) bounds the buffers the kernel's work
    items may use, as the command's --config.
    entry compiles one function and what it calls or launches; lower_to_l0
    rewrites vector ops at the low (mask, repeat, stride) level.

    verify_each={"x": array, ...} runs the kernel on those inputs (as run
    takes them; `blocks` blocks) before the pipeline and after every pass,
    and raises PassError at the first pass that changes an output bit or
    leaves a race or a deadlock, as `tilekit compile --verify-each`.
    pass_pipeline="builtin.module(...)" runs that pipeline instead of the
    arch's (for experiments), as --pass-pipeline.
    """
    settings = _native.CompileSettings(
        arch, emit, entry or "", stop_after or "",
        config or default_config(),
        pass_pipeline or "", lower_to_l0,
        verify_each is not None, blocks)
    return _call(_native.compile, *_source(kernel), settings, dict(verify_each or {}))


def tune(kernel, space, dims, **options):
    """Times every variant of `kernel` over `space` at the shapes `dims` and
    picks the fastest that verifies (tilekit/tuning.py has the options)."""
    from .tuning import tune as run_tuning
    return run_tuning(kernel, space, dims, **options)
