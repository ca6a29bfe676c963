"""Checks `tilekit sim A --diff B --json` against the two kernels timed on
their own (`tilekit sim --by-line --json`): each side's cycles and bound,
the speedup, every pipe's busy share and each listed line's cycles (summed
over pipes, matched by line and column), and that the listed lines are the
ones that changed most."""
import json
import subprocess
import sys

tilekit, a, b = sys.argv[1:4]
options = sys.argv[4:]


def sim(*args):
    out = subprocess.run([tilekit, "sim", *args, "--json", *options],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


diff = sim(a, "--diff", b, "--diff-lines", "3")
alone = {"a": sim(a, "--by-line"), "b": sim(b, "--by-line")}
for side in "ab":
    for key in ("cycles", "bound"):
        assert diff[side][key] == alone[side][key], (side, key)
assert abs(diff["speedup"] - alone["a"]["cycles"] / alone["b"]["cycles"]) < 1e-12
for pipe in diff["pipes"]:
    for side in "ab":
        figures = alone[side]["pipes"].get(pipe["core"], {}).get(pipe["pipe"])
        want = figures["busy_mean_pct"] if figures else 0.0
        assert abs(pipe[side + "_busy_pct"] - want) < 1e-9, pipe


def per_line(report):
    lines = {}
    for entry in report["lines"]:
        key = (entry["line"], entry["column"])
        lines[key] = lines.get(key, 0) + entry["cycles"]
    return lines


lines = {side: per_line(alone[side]) for side in "ab"}
changes = sorted(
    (abs(lines["b"].get(k, 0) - lines["a"].get(k, 0)))
    for k in set(lines["a"]) | set(lines["b"])
    if lines["b"].get(k, 0) != lines["a"].get(k, 0))[::-1]
assert [abs(l["change"]) for l in diff["lines"]] == changes[:3], diff["lines"]
for line in diff["lines"]:
    _, row, col = line["location"].rsplit(":", 2)
    key = (int(row), int(col))
    assert line["a_cycles"] == lines["a"].get(key, 0), line
    assert line["b_cycles"] == lines["b"].get(key, 0), line
print("diff agrees: %d lines, speedup %.3f" % (len(diff["lines"]), diff["speedup"]))
