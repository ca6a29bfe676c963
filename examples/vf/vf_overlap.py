#!/usr/bin/env python3
"""The overlapping-views example through the persistent worker.

Compiles examples/vf/overlap.mlir into a vf-bundle and runs it in one
tilekit-vf-worker over several scalars, runtime mask counts and slice
offsets. Each run's two snapshots (the slice before the scope, and after
its masked writes through overlapping views) must equal, to the bit, the
executor's (`tilekit run --undefined=check`) and an independent NumPy model
of the kernel; the sentinels (everything no store reaches) must be the
input. The bundle must carry the caller's flags (MTE2->V, MTE3->V,
V->MTE3) and the helper's three barriers (write->read, read->write,
write->write).

    python3 examples/vf/vf_overlap.py --output build/vf-overlap-example
"""

import argparse
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vf_worker import Bundle, Worker, run_executor, same_bits  # noqa: E402

CASES = [  # (s, k, off)
    (2.5, 37, 40), (-1.0, 0, 0), (0.5, 64, 8), (3.0, 100, 60), (1.0, 1, 1)]


def model(x, s, k, off):
    """The kernel, from its comments, on a copy of the slice."""
    a = x[0, off:off + 640].astype(np.float32).copy()
    before = a.copy()
    s = np.float32(s)
    r0 = a[0:64].copy()                      # (1)
    a[256:266] = r0[:10]                     # (2) prefix 10 into v2[0]
    r1 = a[256:320].copy()                   # (3) v1[128]
    r2 = r1 * s                              # (4)
    a[192 + 44:256] = r2[44:]                # (5) suffix 20 into v1[64]
    r3 = a[320:384].copy()                   # (6) v2[64]
    a[320:384] = r2                          # (7) v1[192]
    r4 = a[192:256].copy()                   # (8)
    r5 = np.where(r3 > r4, r3, r4)           # (9)
    r6 = np.where(r3 > r4, r3, r0)
    lanes = max(0, min(k, 64))
    a[320:320 + lanes] = r6[:lanes]          # (10) runtime mask k into v2[64]
    a[448:512] = r5                          # (11)
    return before.reshape(1, 640), a.reshape(1, 640)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--output", required=True, help="a new directory")
    parser.add_argument("--tilekit", default="tilekit")
    parser.add_argument("--worker", default="tilekit-vf-worker")
    args = parser.parse_args()
    if os.path.exists(args.output):
        raise SystemExit("--output %s exists; give a new directory" % args.output)
    os.makedirs(args.output)
    here = os.path.dirname(os.path.abspath(__file__))
    kernel = os.path.join(here, "overlap.mlir")
    target = os.path.join(args.output, "bundle")
    env = dict(os.environ, TILEKIT_CACHE_DIR=os.path.join(args.output, "cache"))
    subprocess.run([args.tilekit, "compile", kernel, "--emit=vf-bundle", "-o", target],
                   check=True, env=env)
    bundle = Bundle(target)
    flags = {(f["set"], f["wait"]) for f in bundle.manifest["caller_flags"]}
    for needed in [("mte2", "v"), ("mte3", "v"), ("v", "mte3")]:
        assert needed in flags, "the caller lacks the %s -> %s flag" % needed
    (helper,) = bundle.manifest["helpers"]
    assert helper["barriers"] == 3, helper
    effects = [c["effect"] for c in helper["captures"]]
    assert effects == ["readwrite", "readwrite", "readwrite", "none", "none"], effects

    worker = Worker(args.worker)
    checks = []
    rng = np.random.default_rng(5)
    for s, k, off in CASES:
        x = rng.standard_normal((1, 700), dtype=np.float32)
        sentinel = np.full((1, 640), -7.0, np.float32)
        values = {"x": x, "before": sentinel, "after": sentinel, "s": s, "k": k, "off": off}
        outputs, nanos = worker.run(bundle, values)
        reference = run_executor(args.tilekit, kernel, values, ["before", "after"],
                                 flags=["--undefined=check"])
        ref_before, ref_after = reference["before"], reference["after"]
        gold_before, gold_after = model(x, s, k, off)
        ok = all(same_bits(outputs[n], r) for n, r in
                 [("before", ref_before), ("after", ref_after)])
        ok_model = same_bits(outputs["before"], gold_before) and same_bits(
            outputs["after"], gold_after)
        # Elements no store reaches: a[0..235] (a[0..63] is only read),
        # a[266..319], a[384..447] and a[512..639].
        untouched = np.concatenate([np.arange(0, 236), np.arange(266, 320),
                                    np.arange(384, 448), np.arange(512, 640)])
        sentinels = same_bits(outputs["after"][0, untouched], x[0, off + untouched])
        checks.append({"s": s, "k": k, "off": off, "equal_to_executor": ok,
                       "equal_to_model": ok_model, "sentinels_unchanged": sentinels,
                       "kernel_us": round(nanos / 1000, 1)})
        if not (ok and ok_model and sentinels):
            raise SystemExit("FAIL: %r" % checks[-1])
    assert worker.alive() and worker.runs == len(CASES)
    worker.close()
    with open(os.path.join(args.output, "result.json"), "w") as f:
        json.dump({"checks": checks, "caller_flags": bundle.manifest["caller_flags"],
                   "barriers": helper["barriers"]}, f, indent=2)
    print("vf overlap: %d runs through one worker, equal to the executor and the "
          "model; caller flags %s; %d helper barriers"
          % (len(checks), sorted(flags), helper["barriers"]))


if __name__ == "__main__":
    main()
