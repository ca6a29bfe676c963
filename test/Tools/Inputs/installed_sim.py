"""Imports the tilekit package found on PYTHONPATH and times a kernel: prints
where the package and its config are, then the cycles, then the cycles of
its compiled trace producer (built against the runtime the package finds
beside itself) for the inputs' shapes.

usage: installed_sim.py KERNEL.mlir NAME=SOURCE...
"""
import sys

import tilekit

inputs = dict(arg.split("=", 1) for arg in sys.argv[2:])
print(tilekit.__file__)
print(tilekit.default_config())
print("cycles:", tilekit.sim(sys.argv[1], inputs)["cycles"])
# "rand:20x128:f32" -> "20x128"
dims = {name: source.split(":")[1] for name, source in inputs.items()}
print("cycles:", tilekit.sim(sys.argv[1], producer="compiled", dims=dims)["cycles"])
