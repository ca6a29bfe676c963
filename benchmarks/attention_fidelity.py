"""The flash-attention rows of the fidelity table (docs/timing-model.md,
"Fidelity against the board") and the experiments that say why a row is
off: the examples timed at the shapes of pto-isa's onboard A2/A3
measurements (kernels/automode/a2a3/flash_atten/README.md: head 128, 128
query rows per core, 1K-8K keys), then the fast example at 8K keys with
the vector costs and the fixpipe removed in copies of the config, and the
public kernel's own vector instructions for one lane and one 256-key tile
(benchmarks/kernels/fa_lane_tile.mlir) costed by the config.

    /usr/bin/python3 benchmarks/attention_fidelity.py [BUILD_DIR]
"""

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG = os.path.join(ROOT, "configs", "ascend910b.json")

# pto-isa's onboard times (us) on one to eight cores, S0 = 128 per core.
BOARD = {1: [42.08, 51.44, 43.80, 74.54], 2: [33.201, 44.101, 43.521, 75.162],
         4: [41.721, 55.441, 46.621, 86.322], 8: [63.72, 85.882, 64.461, 107.342]}
KEYS = [1024, 2048, 4096, 8192]


def sim(tilekit, kernel, dims, cores=None, config=CONFIG, extra=()):
    command = [tilekit, "sim", kernel, "--arch=c220", "--producer=compiled",
               "--dims", dims, "--config", config, "--json", *extra]
    if cores:
        command += ["--cores", str(cores)]
    out = subprocess.run(command, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def micros(result):
    return result["seconds"] * 1e6


def variant(base, change):
    config = copy.deepcopy(base)
    change(config)
    return config


def scale_vector(config, factor):
    for cost in config["vector"]["ops"].values():
        for key in ("head", "per_repeat", "tail"):
            if key in cost:
                cost[key] *= factor
        for fit in cost.values():
            if isinstance(fit, dict):
                for key in ("slope", "bias", "per_row", "per_column",
                            "bias_per_column"):
                    if key in fit:
                        fit[key] *= factor


def set_fixpipe(config, bandwidth):
    config["dma"]["bandwidth_gib_s"]["l0c_gm"] = bandwidth


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", default=os.path.join(ROOT, "build"))
    args = parser.parse_args()
    tilekit = os.path.join(args.build, "bin", "tilekit")
    examples = os.path.join(ROOT, "examples")
    fast = os.path.join(examples, "flash_attention_fast.mlir")
    mixed = os.path.join(examples, "flash_attention_mixed.mlir")

    print("| cores | S1 | board | fast example | error | mixed example |")
    print("|---|---|---|---|---|---|")
    for cores, times in BOARD.items():
        for keys, board in zip(KEYS, times):
            rows = 128 * cores
            dims = f"q={rows}x128,kt=128x{keys},v={keys}x128,o={rows}x128"
            f = micros(sim(tilekit, fast, dims, cores))
            m = micros(sim(tilekit, mixed, dims, cores))
            print(f"| {cores} | {keys} | {board:.1f} us | {f:.1f} us | "
                  f"{100 * (f - board) / board:+.0f} % | {m:.1f} us |")

    base = json.load(open(CONFIG))
    dims = "q=128x128,kt=128x8192,v=8192x128,o=128x128"
    experiments = [
        ("as configured", base),
        ("vector ops cost nothing", variant(base, lambda c: scale_vector(c, 0))),
        ("vector ops at half cost", variant(base, lambda c: scale_vector(c, 0.5))),
        ("fixpipe (L0C -> GM) at 105 GiB/s",
         variant(base, lambda c: set_fixpipe(c, 105))),
        ("fixpipe free", variant(base, lambda c: set_fixpipe(c, 1e6))),
        ("vector ops and fixpipe free",
         variant(base, lambda c: (scale_vector(c, 0), set_fixpipe(c, 1e6)))),
    ]
    print("\nfast example, one core, S0 = 128, S1 = 8192 (board 74.5 us):")
    with tempfile.TemporaryDirectory() as tmp:
        for name, config in experiments:
            path = os.path.join(tmp, "config.json")
            with open(path, "w") as f:
                json.dump(config, f)
            result = sim(tilekit, fast, dims, 1, path)
            print(f"  {name}: {micros(result):.1f} us, {result['bound']}")

    # The public kernel's vector work for one lane and one 256-key tile,
    # costed by the config: a lower bound on its time at 8K keys.
    lane = subprocess.run(
        [tilekit, "sim", os.path.join(ROOT, "benchmarks", "kernels",
                                      "fa_lane_tile.mlir"),
         "--entry", "lane_tile", "--config", CONFIG, "--json",
         "--input", "s=rand:64x256:f32", "--input", "pv=rand:64x128:f32",
         "--input", "p=zeros:64x256:f16", "--input", "o=zeros:64x128:f32"],
        check=True, capture_output=True, text=True)
    lane = json.loads(lane.stdout)
    busy = lane["pipes"]["vector"]["v"]["busy_max_pct"] / 100 * lane["cycles"]
    clock = base["clock_ghz"] * 1e9
    print(f"\nthe public kernel's vector instructions, one lane, 256 keys: "
          f"{busy:.0f} cycles; 32 such tiles at 8K keys: "
          f"{32 * busy / clock * 1e6:.1f} us")
    fixpipe = base["dma"]["bandwidth_gib_s"]["l0c_gm"]
    traffic = 2 * 128 * 128 * 4 * 64  # S and P V in f32, 64 blocks of 128 keys
    print(f"its S and P V through the fixpipe at 8K keys: {traffic} B at "
          f"{fixpipe} GiB/s: {traffic / (fixpipe * 2**30) * 1e6:.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
