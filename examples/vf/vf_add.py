#!/usr/bin/env python3
"""The vector-function add example, end to end through one persistent worker.

Compiles examples/vf/add.mlir into a vf-bundle (cold), runs it in one
tilekit-vf-worker for n = 0, 1, 63, 64, 65, 127, 128, 1023, 1024 (a
32-element tensor offset, guard elements past n that must stay unchanged,
then changed inputs), recompiles (a cache hit), edits the helper (add to
subtract: the cache must miss), and relocates the sources and the artifact
directory (still a hit; the moved artifacts still run). Every result is
compared, to the bit, with the executor (`tilekit run`) and NumPy.

    python3 examples/vf/vf_add.py --output build/vf-add-example

The output directory must be new; it keeps every bundle, the cache and
result.json (timings, cache outcomes, worker runs).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vf_worker import Bundle, Worker, run_executor, same_bits  # noqa: E402

SIZES = [0, 1, 63, 64, 65, 127, 128, 1023, 1024]
OFFSET = 32  # elements of x and y the kernel skips
GUARD = 64  # elements of z past n that must keep their sentinel
SENTINEL = np.float32(-12345.5)


class Example:
    def __init__(self, args):
        self.tilekit = args.tilekit
        self.out = os.path.abspath(args.output)
        self.env = dict(os.environ, TILEKIT_CACHE_DIR=os.path.join(self.out, "cache"))
        self.worker = Worker(args.worker)
        self.result = {"checks": [], "compiles": {}}

    def compile(self, kernel, name):
        start = time.perf_counter()
        target = os.path.join(self.out, name)
        subprocess.run([self.tilekit, "compile", kernel, "--emit=vf-bundle",
                        "-o", target], env=self.env, check=True)
        wall = (time.perf_counter() - start) * 1000
        bundle = Bundle(target)
        self.result["compiles"][name] = {
            "wall_ms": round(wall, 1), "cache_hit": bundle.result["cache"]["hit"],
            "text_bytes": bundle.result["image"]["text_bytes"]}
        return bundle

    def inputs(self, n, seed):
        rng = np.random.default_rng(seed)
        # Past n, x and y hold elements the kernel must not add in.
        x = rng.standard_normal((1, n + OFFSET + GUARD), dtype=np.float32)
        y = rng.standard_normal((1, n + OFFSET + GUARD), dtype=np.float32)
        z = np.full((1, n + GUARD), SENTINEL, np.float32)
        return {"x": x, "y": y, "z": z, "n": n}

    def check(self, what, bundle, kernel, n, seed, op):
        values = self.inputs(n, seed)
        outputs, nanos = self.worker.run(bundle, values)
        z = outputs["z"]
        reference = run_executor(self.tilekit, kernel, values, ["z"], env=self.env)["z"]
        x = values["x"][:, OFFSET:OFFSET + n]
        y = values["y"][:, OFFSET:OFFSET + n]
        golden = values["z"].copy()
        golden[:, :n] = op(x, y)
        ok = same_bits(z, reference) and same_bits(z, golden)
        guards = bool(np.all(z[:, n:].view(np.uint32) == SENTINEL.view(np.uint32)))
        self.result["checks"].append({
            "what": what, "n": n, "seed": seed, "equal_to_executor": same_bits(z, reference),
            "equal_to_numpy": same_bits(z, golden), "guards_unchanged": guards,
            "kernel_us": round(nanos / 1000, 1), "worker_runs": self.worker.runs})
        if not (ok and guards):
            raise SystemExit("FAIL: %s n=%d: worker %s, executor %s" %
                             (what, n, z[:, :8], reference[:, :8]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--output", required=True, help="a new directory")
    parser.add_argument("--tilekit", default="tilekit")
    parser.add_argument("--worker", default="tilekit-vf-worker")
    args = parser.parse_args()
    if os.path.exists(args.output):
        raise SystemExit("--output %s exists; give a new directory" % args.output)
    os.makedirs(args.output)
    example = Example(args)
    out = example.out
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.join(out, "src")
    os.makedirs(src)
    kernel = shutil.copy(os.path.join(here, "add.mlir"), src)

    cold = example.compile(kernel, "cold")
    assert not cold.result["cache"]["hit"], "the first compile must be cold"
    for n in SIZES:
        example.check("cold", cold, kernel, n, seed=n, op=np.add)
    for n in (65, 1024):
        example.check("changed inputs", cold, kernel, n, seed=1000 + n, op=np.add)

    hit = example.compile(kernel, "hit")
    assert hit.result["cache"]["hit"], "an unchanged kernel must hit the cache"
    assert hit.code == cold.code
    example.check("cache hit", hit, kernel, 127, seed=7, op=np.add)

    with open(kernel) as f:
        text = f.read()
    edited = os.path.join(src, "sub.mlir")
    with open(edited, "w") as f:
        f.write(text.replace("pto.vreg.add", "pto.vreg.sub"))
    sub = example.compile(edited, "edited")
    assert not sub.result["cache"]["hit"], "an edited helper must miss the cache"
    for n in (1, 65, 1024):
        example.check("edited helper", sub, edited, n, seed=n, op=np.subtract)

    moved_src = os.path.join(out, "moved-src")
    shutil.move(src, moved_src)
    moved_kernel = os.path.join(moved_src, "add.mlir")
    relocated = os.path.join(out, "relocated")
    shutil.move(os.path.join(out, "cold"), relocated)
    rebuilt = example.compile(moved_kernel, "rebuilt-after-move")
    assert rebuilt.result["cache"]["hit"], "moved sources must still hit the cache"
    moved = Bundle(relocated)
    for n in (63, 1023):
        example.check("relocated artifacts", moved, moved_kernel, n, seed=n, op=np.add)

    pid = example.worker.process.pid
    example.result["worker"] = {"pid": pid, "runs": example.worker.runs,
                                "alive": example.worker.alive()}
    assert example.worker.alive() and example.worker.runs == len(example.result["checks"])
    example.worker.close()
    with open(os.path.join(out, "result.json"), "w") as f:
        json.dump(example.result, f, indent=2)
    print("vf add: %d checks through one worker (pid %d), all equal to the executor"
          % (len(example.result["checks"]), pid))
    for name, c in example.result["compiles"].items():
        print("  compile %-20s %7.1f ms  cache %s" % (name, c["wall_ms"],
                                                    "hit" if c["cache_hit"] else "miss"))


if __name__ == "__main__":
    main()
