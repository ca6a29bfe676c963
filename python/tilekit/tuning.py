"""Which variant of a kernel is fastest on the modelled machine
(`tilekit.tune`, `tilekit tune`; docs/python-kernels.md).

A kernel builder (a tilekit.lang kernel function, or any callable taking
the parameters as keywords and returning a kernel) and a space of its
parameters (tile sizes, slots, ...): every variant is built, checked
against the machine's buffers, compiled and timed with its compiled trace
producer at the problem's shapes; those that do not build, fit or compile
are refused with the reason. The fastest few are run on small inputs by
the executor and compared with a reference; the best verified variant wins.
Timings are cached by kernel text and machine config, and variants are
timed in parallel on any concurrent.futures executor: local processes by
default, a Dask `distributed` client's when one is given.
"""

import argparse
import concurrent.futures
import hashlib
import itertools
import json
import multiprocessing
import os
import sys
import time

import numpy as np

__all__ = ["tune", "TuneResult", "main"]


def _variants(space):
    if isinstance(space, dict):
        names = list(space)
        return [dict(zip(names, values))
                for values in itertools.product(*(list(space[n]) for n in names))]
    return [dict(point) for point in space]


def _describe(params):
    return ", ".join("%s=%s" % item for item in params.items())


def _build(kernel, params):
    """(text, None) of a variant, or (None, reason) when it does not build."""
    from . import lang
    try:
        if isinstance(kernel, lang.KernelFunction):
            return lang.build(kernel, **params).mlir(locations=True), None
        built = kernel(**params)
        if hasattr(built, "__tilekit_source__"):
            return built.__tilekit_source__(), None
        if isinstance(built, (str, os.PathLike)) and os.path.exists(built):
            with open(built) as f:
                return f.read(), None
        return str(built), None
    except lang.KernelError as error:
        return None, str(error)


def _defaults(kernel, variant):
    """The kernel's own parameters (its keyword defaults) for the names the
    space varies: the kernel as written, which speedups are measured
    against. None when a name has no default."""
    from . import lang
    if not isinstance(kernel, lang.KernelFunction):
        return None
    defaults = {p.name: p.default for p in kernel.signature.parameters.values()
                if p.kind == p.KEYWORD_ONLY and p.default is not p.empty}
    if not all(name in defaults for name in variant):
        return None
    return {name: defaults[name] for name in variant}


def _cache_key(text, task):
    digest = hashlib.sha256()
    with open(task["config"], "rb") as f:
        config = f.read()
    for part in (text.encode(), config, json.dumps(
            [task["arch"], task["dims"], task["scalars"], task["cores"]],
            sort_keys=True).encode(), _tilekit_stamp()):
        digest.update(part)
        digest.update(b"\0")
    return digest.hexdigest()


def _tilekit_stamp():
    """The native module's identity: a rebuilt tilekit times afresh."""
    from . import _native
    stat = os.stat(_native.__file__)
    return ("%d:%d" % (stat.st_size, stat.st_mtime_ns)).encode()


def _classify(error):
    message = str(error)
    if "bytes of" in message and "capacity" in message:
        return "memory"
    return "compile"


def _evaluate(task):
    """Times one variant (runs in a worker): its timing, or why it was
    refused. Module level, so any executor can pickle it."""
    import warnings
    import tilekit
    text = task["text"]
    started = time.perf_counter()
    # The kernel's warnings (a buffer half full, ...) go in its row.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            tilekit.check(text, config=task["config"])
            if task["arch"]:
                # What ships must compile, to the C++ too.
                tilekit.compile(text, arch=task["arch"], config=task["config"])
            report = tilekit.sim(text, producer="compiled", dims=task["dims"],
                                 scalars=task["scalars"], config=task["config"],
                                 arch=task["arch"], cores=task["cores"])
        except tilekit.Error as error:
            return {"status": "refused", "refused": _classify(error), "reason": str(error)}
    return {"status": "timed", "cycles": report["cycles"], "seconds": report["seconds"],
            "bound": report["bound"], "wall_seconds": time.perf_counter() - started,
            "warnings": sorted({str(w.message) for w in caught})}


class TuneResult:
    """Every variant's outcome (`rows`, fastest first, refused last), the
    chosen `best` parameters and kernel text, and the baseline's."""

    def __init__(self, rows, best, best_text, baseline, machine, dims):
        self.rows, self.best, self.best_text = rows, best, best_text
        self.baseline, self.machine, self.dims = baseline, machine, dims

    @property
    def speedup(self):
        """The best variant's cycles against the baseline's."""
        base = next((r for r in self.rows if r["params"] == self.baseline), None)
        best = next((r for r in self.rows if r["params"] == self.best), None)
        if not base or not best or base.get("cycles") is None or best.get("cycles") is None:
            return None
        return base["cycles"] / best["cycles"]

    def table(self):
        """The rows as the text `tilekit tune` prints."""
        labels = [("* " if row["params"] == self.best else "") + _describe(row["params"])
                  for row in self.rows]
        width = max([len("variant")] + [len(label) for label in labels])
        out = ["%-*s %12s %10s  %-24s %s" % (width, "variant", "cycles", "us", "bound",
                                             "verified")]
        for row, label in zip(self.rows, labels):
            if row["status"] == "timed":
                out.append("%-*s %12d %10.2f  %-24s %s" % (
                    width, label, row["cycles"], row["seconds"] * 1e6, row["bound"],
                    {True: "yes", False: "NO: " + row.get("mismatch", ""),
                     None: "-"}[row.get("verified")]))
            else:
                reason = row["reason"].strip().splitlines()[0] if row["reason"] else ""
                out.append("%-*s %12s %10s  refused (%s): %s" % (
                    width, label, "-", "-", row["refused"], reason[:120]))
        if self.best is not None:
            out.append("best: %s%s" % (_describe(self.best), "" if self.speedup is None else
                                       ", %.2fx the baseline (%s)" % (
                                           self.speedup, _describe(self.baseline))))
        else:
            out.append("best: none (every variant was refused or disagreed)")
        return "\n".join(out)

    def to_json(self):
        return {"machine": self.machine, "dims": self.dims, "baseline": self.baseline,
                "best": self.best, "speedup": self.speedup, "variants": self.rows}


def _tolerance(array):
    """(rtol, atol) two variants' outputs may differ by: another tiling sums
    in another order and may round intermediates (an f16 P) at other points,
    so a few f16 ulps of the result for floats; integers exactly."""
    if array.dtype == np.float16:
        return 4e-3, 4e-3
    if array.dtype.kind == "f":
        return 1e-3, 1e-4
    return 0, 0


def _mismatch(got, want, tolerance):
    for name, expected in want.items():
        actual = np.asarray(got.get(name))
        expected = np.asarray(expected)
        if actual.shape != expected.shape:
            return "%s: shape %s, expected %s" % (name, actual.shape, expected.shape)
        rtol, atol = tolerance if tolerance is not None else _tolerance(expected)
        if not np.allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True):
            worst = np.nanmax(np.abs(actual.astype(np.float64) - expected))
            return "%s differs by up to %g" % (name, worst)
    return None


def _executor(executor, workers):
    """(executor, owned) for the given one: a Dask client gives its
    concurrent.futures view; none gives local processes."""
    if executor is None:
        # Forked: a script without a __main__ guard works as it does with
        # threads (the kernel builder's context runs no threads to fork).
        context = multiprocessing.get_context("fork")
        return concurrent.futures.ProcessPoolExecutor(
            max_workers=workers or os.cpu_count(), mp_context=context), True
    if hasattr(executor, "get_executor"):  # distributed.Client
        return executor.get_executor(), False
    return executor, False


def tune(kernel, space, dims, *, scalars=None, config=None, arch="c220", cores=0,
         baseline=None, verify_inputs=None, reference=None, verify_top=3, tolerance=None,
         executor=None, workers=None, cache=True, cache_dir=None, report=None,
         progress=False):
    """Tunes `kernel` over `space` for a problem of shapes `dims`.

    kernel: a tilekit.lang kernel function (built as tk.build(kernel, **p)),
    or a callable returning a kernel (tilekit.lang kernel, MLIR text, path).
    space: {"block": [32, 64], "slots": [1, 2]} (every combination) or a
    list of parameter dicts. dims / scalars: the tensors' shapes and the
    scalars the compiled producer times ({"q": (4096, 128)}, {"n": 7}).
    arch: the kernel is compiled for it and the compiled kernel timed
    (None: the PTO program's schedule). baseline: the parameters speedups
    are measured against (default: the kernel's own keyword defaults, else
    the first variant).

    verify_inputs: small inputs ({"x": array, ...}); the `verify_top`
    fastest variants run on them by the executor and must match
    reference(inputs) (a dict of expected outputs) or, without one, the
    baseline's outputs on the executor, within `tolerance` ((rtol, atol);
    default by dtype: another tiling rounds in another order). A variant
    that disagrees is not chosen.

    Timings are cached under cache_dir (default $TILEKIT_CACHE_DIR/tune, else
    ~/.cache/tilekit/tune) by kernel text, config and arguments. executor:
    any concurrent.futures executor or a dask.distributed Client (default:
    `workers` local processes). report=PATH writes the best variant's HTML
    report. Returns a TuneResult.
    """
    import tilekit
    config = os.fspath(config or tilekit.default_config())
    with open(config) as f:
        machine = json.load(f).get("name", os.path.basename(config))
    variants = _variants(space)
    if not variants:
        raise ValueError("tune: the space has no variant")
    if baseline is None:
        baseline = _defaults(kernel, variants[0]) or variants[0]
    baseline = dict(baseline)
    if baseline not in variants:
        variants.insert(0, baseline)
    dims = {k: tuple(v) for k, v in dims.items()}
    task = {"dims": {k: list(v) for k, v in dims.items()}, "scalars": dict(scalars or {}),
            "config": config, "arch": arch, "cores": cores}
    if cache_dir is None:
        root = os.environ.get("TILEKIT_CACHE_DIR") or os.path.join(
            os.path.expanduser("~"), ".cache", "tilekit")
        cache_dir = os.path.join(root, "tune")

    rows, pending, texts = [], {}, {}
    for params in variants:
        text, reason = _build(kernel, params)
        row = {"params": params}
        rows.append(row)
        if text is None:
            row.update(status="refused", refused="build", reason=reason)
            continue
        texts[id(row)] = text
        key = _cache_key(text, task)
        path = os.path.join(cache_dir, key + ".json")
        if cache and os.path.exists(path):
            with open(path) as f:
                row.update(json.load(f), cached=True)
            continue
        pending[id(row)] = (row, path, dict(task, text=text))

    pool, owned = _executor(executor, workers)
    try:
        futures = {pool.submit(_evaluate, t): (row, path)
                   for row, path, t in pending.values()}
        done = 0
        for future in concurrent.futures.as_completed(futures):
            row, path = futures[future]
            outcome = future.result()
            row.update(outcome, cached=False)
            done += 1
            if progress:
                print("tune: %d/%d variants timed" % (done, len(futures)), file=sys.stderr)
            if cache:
                os.makedirs(cache_dir, exist_ok=True)
                stored = {k: v for k, v in outcome.items() if k != "wall_seconds"}
                scratch = path + ".%d.tmp" % os.getpid()
                with open(scratch, "w") as f:
                    json.dump(stored, f)
                os.replace(scratch, path)  # whole or not at all
    finally:
        if owned:
            pool.shutdown()

    # Fastest first; of equal cycles the baseline, then the space's order.
    timed = sorted((r for r in rows if r["status"] == "timed"),
                   key=lambda r: (r["cycles"], r["params"] != baseline))
    refused = [r for r in rows if r["status"] != "timed"]
    rows = timed + refused
    best = None
    if verify_inputs is not None:
        if reference is not None:
            expected = reference(verify_inputs)
        else:
            base = next((r for r in rows if r["params"] == baseline), None)
            if base is None or id(base) not in texts:
                raise ValueError("tune: the baseline %s does not build; give reference="
                                 % _describe(baseline))
            expected = tilekit.run(texts[id(base)], verify_inputs, config=config)
            # The outputs: results and the tensors the kernel wrote.
            expected = {k: v for k, v in expected.items()
                        if not isinstance(verify_inputs.get(k), np.ndarray)
                        or not np.array_equal(v, verify_inputs[k])}
        for row in timed[:verify_top]:
            try:
                got = tilekit.run(texts[id(row)], verify_inputs, config=config)
                why = _mismatch(got, expected, tolerance)
            except tilekit.Error as error:
                why = str(error).splitlines()[0]
            row["verified"] = why is None
            if why is not None:
                row["mismatch"] = why
            elif best is None:
                best = row
    elif timed:
        best = timed[0]
    result = TuneResult(rows, best["params"] if best else None,
                        texts.get(id(best)) if best else None, baseline, machine,
                        {k: list(v) for k, v in dims.items()})
    if report and best is not None:
        tilekit.sim(result.best_text, producer="compiled", dims=dims, scalars=scalars,
                    config=config, arch=arch, cores=cores, html_report=report)
    return result


def _parse_values(text):
    """A parameter's values from the command line: ints, true/false, else
    strings."""
    values = []
    for item in text.split(","):
        if item.lower() in ("true", "false"):
            values.append(item.lower() == "true")
            continue
        try:
            values.append(int(item))
        except ValueError:
            values.append(item)
    return values


def main(argv=None):
    """`tilekit tune FILE.py:FUNCTION --space NAME=V1,V2 ... --dims ...`."""
    parser = argparse.ArgumentParser(
        prog="tilekit tune",
        description="Time every variant of a Python kernel over a space of its "
                    "compile-time parameters on the modelled machine (compiled, "
                    "with the compiled trace producer), refuse those that do not fit "
                    "or compile, and print the table, fastest first.")
    parser.add_argument("kernel", help="FILE.py:FUNCTION, a tilekit.lang kernel function")
    parser.add_argument("--space", action="append", default=[], metavar="NAME=V1,V2",
                        help="values of one parameter (repeat for each): integers, "
                             "true/false or names")
    parser.add_argument("--dims", required=True, metavar="NAME=AxB,...",
                        help="each tensor argument's shape, as sim --dims")
    parser.add_argument("--scalar", action="append", default=[], metavar="NAME=VALUE",
                        help="a scalar argument's value")
    parser.add_argument("--config", help="machine config (default: the 910B's)")
    parser.add_argument("--arch", default="c220",
                        help="compile for c220 or c310 and time that (none: the PTO schedule)")
    parser.add_argument("--baseline", metavar="NAME=V,...",
                        help="the variant speedups are measured against (default: the "
                             "kernel's own defaults)")
    parser.add_argument("--verify", action="append", default=[], metavar="NAME=SOURCE",
                        help="a small input (as run --input: rand:100x128:f16, an .npy); "
                             "the fastest variants run on them and must match the baseline")
    parser.add_argument("--tolerance", metavar="RTOL,ATOL",
                        help="how far a verified variant's outputs may be from the "
                             "baseline's (default by type: f32 1e-3,1e-4; f16 4e-3,4e-3)")
    parser.add_argument("--workers", type=int, default=0, help="local processes (default: cores)")
    parser.add_argument("--scheduler", help="a Dask scheduler address to time the variants on")
    parser.add_argument("--no-cache", action="store_true", help="time every variant afresh")
    parser.add_argument("--report", metavar="FILE.html", help="the best variant's HTML report")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("-o", "--output", metavar="FILE.mlir", help="write the best variant")
    args = parser.parse_args(argv)

    import runpy
    path, _, name = args.kernel.rpartition(":")
    if not path or not name:
        parser.error("kernel: expected FILE.py:FUNCTION, not %r" % args.kernel)
    if not os.path.isfile(path):
        parser.error("%s: no such file" % path)
    kernel = runpy.run_path(path).get(name)
    if kernel is None:
        parser.error("%s defines no %s" % (path, name))
    space = {}
    for item in args.space:
        key, _, values = item.partition("=")
        space[key] = _parse_values(values)
    dims = {}
    for item in args.dims.split(","):
        key, _, shape = item.partition("=")
        try:
            dims[key] = tuple(int(d) for d in shape.split("x"))
        except ValueError:
            parser.error("--dims: expected NAME=AxB, not %r" % item)
    scalars = {}
    for item in args.scalar:
        key, _, value = item.partition("=")
        scalars[key] = _parse_values(value)[0]
    tolerance = None
    if args.tolerance:
        try:
            tolerance = tuple(float(x) for x in args.tolerance.split(","))
        except ValueError:
            tolerance = ()
        if len(tolerance) != 2:
            parser.error("--tolerance: expected RTOL,ATOL, not %r" % args.tolerance)
    verify = None
    if args.verify:
        verify = dict(item.partition("=")[::2] for item in args.verify)
    baseline = None
    if args.baseline:
        baseline = {}
        for item in args.baseline.split(","):
            key, _, value = item.partition("=")
            baseline[key] = _parse_values(value)[0]
    executor = None
    if args.scheduler:
        from distributed import Client
        executor = Client(args.scheduler)
    try:
        result = tune(kernel, space or [{}], dims, scalars=scalars, config=args.config,
                      arch=None if args.arch == "none" else args.arch, workers=args.workers or None,
                      executor=executor, cache=not args.no_cache, report=args.report,
                      baseline=baseline, verify_inputs=verify, tolerance=tolerance,
                      progress=sys.stderr.isatty())
    finally:
        if executor is not None:
            executor.close()
    if args.output and result.best_text is not None:
        scratch = args.output + ".tmp"
        with open(scratch, "w") as f:
            f.write(result.best_text)
        os.replace(scratch, args.output)
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        print(result.table())
    return 0 if result.best is not None else 1


if __name__ == "__main__":
    sys.exit(main())
