"""Runs a kernel through its vf-bundle in the worker and through the
executor, on the same inputs, and compares every tensor argument to the bit.

usage: run_both.py BUNDLE_DIR KERNEL WORKER NAME=VALUE...
(a VALUE is rand:SHAPE, drawn from NumPy's default_rng(0), or a number)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "examples", "vf"))
from vf_worker import Bundle, Worker, run_executor, same_bits  # noqa: E402

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
tensors = [name for name, value in values.items() if isinstance(value, np.ndarray)]
reference = run_executor("tilekit", kernel, values, tensors, flags=["--undefined=check"])
for name, got in outputs.items():
    if not same_bits(reference[name], got):
        sys.exit("FAIL: %s differs from the executor" % name)
print("%s: %d helper(s), every tensor equal to the executor" %
      (bundle.manifest["kernel"], len(bundle.manifest["helpers"])))
