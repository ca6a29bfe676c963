"""How much the examples' predictions depend on the figures of the 910B
config that no public source gives (the modelling choices): each is halved
and doubled in a copy of the config, and the compiled kernels are timed
again with their compiled trace producers (`tilekit sim --arch=c220
--producer=compiled`). Prints the change of each prediction.

    /usr/bin/python3 benchmarks/sensitivity.py [BUILD_DIR] [--markdown]
"""

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KERNELS = [
    ("GEMM 4096^3 f16", "gemm.mlir", "a=4096x4096,b=4096x4096,c=4096x4096"),
    ("softmax 8192 x 128 f32", "softmax.mlir", "x=8192x128,y=8192x128"),
    ("flash attention S=4096 (mixed)", "flash_attention_mixed.mlir",
     "q=4096x128,kt=128x4096,v=4096x128,o=4096x128"),
    ("flash attention S=4096 (fast)", "flash_attention_fast.mlir",
     "q=4096x128,kt=128x4096,v=4096x128,o=4096x128"),
]

# (name, where in the config, factors); each a figure without a public source.
CHOICES = [
    ("L2 bandwidth", ("l2", "bandwidth_gb_s"), (0.5, 2)),
    ("DMA latency", ("dma", "latency_cycles"), (0.5, 2)),
    ("DMAs in flight", ("dma", "max_outstanding"), (0.5, 2)),
    ("launch", ("launch_cycles",), (0.5, 2)),
    ("cube weight slots", ("cube", "weight_slots"), (0.5, 2)),
]


def cycles(tilekit, config, kernel, dims, env):
    out = subprocess.run(
        [tilekit, "sim", os.path.join(ROOT, "examples", kernel), "--arch=c220",
         "--producer=compiled", "--dims", dims, "--config", config, "--json"],
        check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(out)["cycles"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build", nargs="?", default=os.path.join(ROOT, "build"))
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = parser.parse_args()
    tilekit = os.path.join(args.build, "bin", "tilekit")
    with open(os.path.join(ROOT, "configs", "ascend910b.json")) as f:
        base = json.load(f)
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as scratch:
        env.setdefault("TILEKIT_CACHE_DIR", os.path.join(scratch, "cache"))
        base_path = os.path.join(scratch, "base.json")
        with open(base_path, "w") as f:
            json.dump(base, f)
        baseline = {name: cycles(tilekit, base_path, kernel, dims, env)
                    for name, kernel, dims in KERNELS}
        rows = []
        for label, keys, factors in CHOICES:
            for factor in factors:
                config = copy.deepcopy(base)
                node = config
                for key in keys[:-1]:
                    node = node[key]
                value = node[keys[-1]] * factor
                node[keys[-1]] = max(1, round(value)) if isinstance(node[keys[-1]], int) else value
                path = os.path.join(scratch, "variant.json")
                with open(path, "w") as f:
                    json.dump(config, f)
                change = [cycles(tilekit, path, kernel, dims, env) / baseline[name] - 1
                          for name, kernel, dims in KERNELS]
                rows.append(("%s x%s (%s)" % (label, factor, node[keys[-1]]), change))
    names = [name for name, _, _ in KERNELS]
    if args.markdown:
        print("| figure | " + " | ".join(names) + " |")
        print("|---|" + "---|" * len(names))
        print("| baseline cycles | " + " | ".join(str(baseline[n]) for n in names) + " |")
        for label, change in rows:
            print("| %s | %s |" % (label, " | ".join("%+.1f %%" % (100 * c) for c in change)))
    else:
        print("%-36s" % "figure" + "".join("%32s" % n for n in names))
        print("%-36s" % "baseline cycles" + "".join("%32d" % baseline[n] for n in names))
        for label, change in rows:
            print("%-36s" % label + "".join("%31.1f%%" % (100 * c) for c in change))
    return 0


if __name__ == "__main__":
    sys.exit(main())
