"""End-to-end speed of `tilekit sim --trace FILE`: the whole command a user
runs (read the file, time it, print the report), on a GEMM trace of about
10 M records written by tilekit-write-gemm-trace.

usage: /usr/bin/python3 benchmarks/sim_from_file.py [BUILD_DIR] [--repeat N]

Prints the trace's size, then min and median wall time over the runs, the
records per second at the median, and the peak resident set of one run.
"""
import argparse
import os
import resource
import statistics
import subprocess
import time

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("build", nargs="?", default="build")
parser.add_argument("--repeat", type=int, default=5)
parser.add_argument("--trace", default="/tmp/tilekit-gemm-10m.bin")
args = parser.parse_args()

tilekit = os.path.join(args.build, "bin", "tilekit")
writer = os.path.join(args.build, "benchmarks", "tilekit-write-gemm-trace")
if not os.path.exists(args.trace):
    # 60 x 30 output tiles, 624 K steps: 10.1 M records.
    subprocess.run([writer, "7680", "39936", "7680", args.trace], check=True)

report = subprocess.run([tilekit, "sim", "--trace", args.trace, "--json"],
                        check=True, capture_output=True, text=True).stdout
records = int(report.split('"records":')[1].split(",")[0])
size = os.path.getsize(args.trace)
print(f"trace: {records} records, {size / 1e6:.1f} MB "
      f"({size / records:.1f} bytes a record)")

times = []
for _ in range(args.repeat):
    start = time.perf_counter()
    subprocess.run([tilekit, "sim", "--trace", args.trace],
                   check=True, stdout=subprocess.DEVNULL)
    times.append(time.perf_counter() - start)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
median = statistics.median(times)
print(f"tilekit sim --trace: min {min(times):.3f} s, median {median:.3f} s "
      f"over {args.repeat} runs: {records / median / 1e6:.1f} M records/s; "
      f"peak resident {peak / 1024:.0f} MB")
