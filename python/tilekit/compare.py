"""Two kernels, or two variants of one, timed side by side (`tilekit.compare`).

Both are timed as `tilekit.sim` times them (by source line), and the
comparison lists what a kernel engineer asks of a change: the cycles and
the bound of each, the busy share of every pipe, and the source lines whose
cost changed most. Lines are matched by line and column, as they are in two
variants made from one source (a tile size, a slot count changed); a line
only one kernel has counts against the other as zero.
"""


def _pipes(report):
    """{(core kind, pipe): mean busy %} of a report."""
    busy = {}
    for kind, pipes in report["pipes"].items():
        for pipe, figures in pipes.items():
            busy[(kind, pipe)] = figures["busy_mean_pct"]
    return busy


def _lines(report):
    """{(line, column): (cycles, "file:line:column")} of a by-line report."""
    lines = {}
    for entry in report.get("lines", []):
        key = (entry["line"], entry["column"])
        cycles, _ = lines.get(key, (0, None))
        lines[key] = (cycles + entry["cycles"],
                      "%s:%d:%d" % (entry["file"], entry["line"], entry["column"]))
    return lines


def compare_reports(a, b, top=10):
    """The comparison of two `tilekit.sim(..., by_line=True)` reports."""
    pipes_a, pipes_b = _pipes(a), _pipes(b)
    pipes = [{"core": kind, "pipe": pipe, "a_busy_pct": pipes_a.get((kind, pipe), 0.0),
              "b_busy_pct": pipes_b.get((kind, pipe), 0.0)}
             for kind, pipe in sorted(set(pipes_a) | set(pipes_b))]
    lines_a, lines_b = _lines(a), _lines(b)
    lines = []
    for key in set(lines_a) | set(lines_b):
        cycles_a, where_a = lines_a.get(key, (0, None))
        cycles_b, where_b = lines_b.get(key, (0, None))
        if cycles_a != cycles_b:
            lines.append({"location": where_b or where_a, "a_cycles": cycles_a,
                          "b_cycles": cycles_b, "change": cycles_b - cycles_a})
    # Largest change first; ties in source order, so the result is stable.
    lines.sort(key=lambda line: (-abs(line["change"]), line["location"]))
    return {
        "a": {"cycles": a["cycles"], "bound": a["bound"], "seconds": a["seconds"]},
        "b": {"cycles": b["cycles"], "bound": b["bound"], "seconds": b["seconds"]},
        "speedup": a["cycles"] / b["cycles"] if b["cycles"] else None,
        "pipes": pipes,
        "lines": lines[:top],
    }


def format_comparison(comparison):
    """The comparison as the text `print` shows."""
    a, b = comparison["a"], comparison["b"]
    speedup = comparison["speedup"]
    out = ["cycles: A %d (%s), B %d (%s)%s" % (
        a["cycles"], a["bound"], b["cycles"], b["bound"],
        ", B is %.2fx as fast" % speedup if speedup else "")]
    out.append("pipe busy, mean over cores (A -> B):")
    for pipe in comparison["pipes"]:
        out.append("  %-6s %-5s %6.1f%% -> %6.1f%%" % (
            pipe["core"], pipe["pipe"], pipe["a_busy_pct"], pipe["b_busy_pct"]))
    if comparison["lines"]:
        out.append("lines whose cost changed most (cycles A -> B):")
        for line in comparison["lines"]:
            out.append("  %s  %d -> %d (%+d)" % (line["location"], line["a_cycles"],
                                                line["b_cycles"], line["change"]))
    return "\n".join(out)
