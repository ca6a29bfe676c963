"""Runs a kernel through its vf-bundle in the worker and through the
executor, on the same inputs, and compares every tensor argument to the bit.

usage: run_both.py BUNDLE_DIR KERNEL WORKER NAME=VALUE...
(a VALUE is rand:SHAPE, drawn from NumPy's default_rng(0), or a number)
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "examples", "vf"))
from vf_worker import Bundle, Worker  # noqa: E402

bundle_dir, kernel, worker_binary = sys.argv[1:4]
rng = np.random.default_rng(0)
values = {}
for spec in sys.argv[4:]:
    name, value = spec.split("=", 1)
    if value.startswith("rand:"):
        shape = tuple(int(d) for d in value[5:].split("x"))
        values[name] = rng.standard_normal(shape, dtype=np.float32)
    else:
        values[name] = float(value) if "." in value else int(value)
bundle = Bundle(bundle_dir)
worker = Worker(worker_binary)
outputs, _ = worker.run(bundle, values)
worker.close()
with tempfile.TemporaryDirectory() as tmp:
    argv = ["tilekit", "run", kernel, "--undefined=check"]
    for name, value in values.items():
        if isinstance(value, np.ndarray):
            np.save("%s/%s.npy" % (tmp, name), value)
            argv += ["--input", "%s=%s/%s.npy" % (name, tmp, name)]
            argv += ["--output", "%s=%s/%s.out.npy" % (name, tmp, name)]
        else:
            argv += ["--input", "%s=%r" % (name, value)]
    subprocess.run(argv, check=True)
    for name, got in outputs.items():
        want = np.load("%s/%s.out.npy" % (tmp, name))
        if not np.array_equal(want.view(np.uint32), got.view(np.uint32)):
            sys.exit("FAIL: %s differs from the executor" % name)
print("%s: %d helper(s), every tensor equal to the executor" %
      (bundle.manifest["kernel"], len(bundle.manifest["helpers"])))
