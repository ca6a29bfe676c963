"""Two kernels, or two variants of one, timed side by side (`tilekit.compare`).

Both are timed as `tilekit.sim` times them (by source line); the comparison
is the one `tilekit sim A --diff B` prints (lib/Timing/Comparison.cpp): the
cycles and the bound of each, the busy share of every pipe, and the source
lines whose cost changed most, matched by line and column as they are in two
variants made from one source (a tile size, a slot count changed).
"""

import json

from . import _native


def compare_reports(a, b, top=10):
    """The comparison of two `tilekit.sim(..., by_line=True)` reports."""
    return json.loads(_native.compare_reports(json.dumps(a), json.dumps(b), top))


def format_comparison(comparison):
    """The comparison as the text `print` shows (as `sim --diff` prints it)."""
    return _native.format_comparison(json.dumps(comparison)).rstrip("\n")
