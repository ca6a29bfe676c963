"""Imports the tilekit package found on PYTHONPATH and times a kernel: prints
where the package and its config are, then the cycles.

usage: installed_sim.py KERNEL.mlir NAME=SOURCE...
"""
import sys

import tilekit

inputs = dict(arg.split("=", 1) for arg in sys.argv[2:])
print(tilekit.__file__)
print(tilekit.default_config())
print("cycles:", tilekit.sim(sys.argv[1], inputs)["cycles"])
