"""Runs each `tilekit sim` command of a list N times and requires identical
output and identical trace bytes every time (the cores of a group run on
threads; the trace must not depend on how they interleave).

usage: repeat_sim.py N TILEKIT OUTDIR -- ARGS... [-- ARGS...]...
"""
import hashlib
import subprocess
import sys

runs, tilekit, outdir = int(sys.argv[1]), sys.argv[2], sys.argv[3]
commands, current = [], None
for arg in sys.argv[4:]:
    if arg == "--":
        current = []
        commands.append(current)
    else:
        current.append(arg)

for index, args in enumerate(commands):
    trace = f"{outdir}/trace{index}.bin"
    seen = set()
    for _ in range(runs):
        done = subprocess.run([tilekit, "sim", *args, "--trace-out", trace],
                              capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"command {index} failed: {done.stderr}")
        with open(trace, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        cycles = done.stdout.splitlines()[0]
        seen.add((digest, done.stdout))
    status = "identical" if len(seen) == 1 else f"{len(seen)} DIFFERENT"
    print(f"command {index}: {runs} runs, {status}: {cycles}")
