"""The worker survives faulting kernels and keeps running good ones.

usage: worker_faults.py WORKER BUNDLE_DIR
"""
import os
import platform
import struct
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "examples", "vf"))
from vf_worker import Bundle, KernelFault, Worker  # noqa: E402

worker_binary, bundle_dir = sys.argv[1:3]
machine = platform.machine()
# An illegal instruction, then a load from address 0.
faults = {"x86_64": [b"\x0f\x0b", b"\x48\x8b\x04\x25\x00\x00\x00\x00\xc3"],
          "aarch64": [b"\x00\x00\x00\x00", b"\x00\x00\x40\xf9\xc0\x03\x5f\xd6"]}[machine]

worker = Worker(worker_binary)
bundle = Bundle(bundle_dir)
for code in faults:
    try:
        worker.run_code(code, 64, [np.zeros((1, 4), np.float32)])
        sys.exit("FAIL: a faulting kernel ran")
    except KernelFault as fault:
        print("fault reported:", fault, "signal", fault.signal)
n = 70
x = np.arange(n + 96, dtype=np.float32).reshape(1, -1)
y = np.full((1, n + 96), 0.5, np.float32)
z = np.zeros((1, n), np.float32)
outputs, _ = worker.run(bundle, {"x": x, "y": y, "z": z, "n": n})
assert np.array_equal(outputs["z"], x[:, 32:32 + n] + 0.5), outputs["z"]
assert worker.alive() and worker.runs == 3
print("after %d faults the same worker ran the add kernel: runs %d" %
      (len(faults), worker.runs))
worker.close()

# A malformed request is answered, then the worker stops (the stream can
# no longer be trusted).
bad = subprocess.run([worker_binary], input=b"TKVF" + struct.pack("<I", 9),
                     capture_output=True)
status, = struct.unpack("<I", bad.stdout[4:8])
print("malformed request: status", status, "exit", bad.returncode,
      bad.stdout[36:].decode())
