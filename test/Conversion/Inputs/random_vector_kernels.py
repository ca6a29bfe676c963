#!/usr/bin/env python3
"""Random PTO vector kernels through `tilekit compile --verify-each`.

    random_vector_kernels.py TILEKIT WORKDIR [--count N] [--seed S] [--write-only]

Each kernel (elementwise ops, the math functions, compares and selects, prefix sums down columns and along rows, index sequences,
scalars, casts through the other float type
with every round mode, columns padded past a random one (fillpad), an R x 1 column combined with every row, row and
column sums, maxima, minima and products combined back) walks a static R x C tensor in tiles of whole rows (odd widths,
one to sixteen rows, f32 or f16, sometimes a ragged last tile with fewer
valid rows), sometimes in two nested loops, and
computes a random expression of its input tiles and a scalar with the
elementwise ops the lowering knows, sometimes choosing between two
expressions with an `scf.if` on a flag argument. Nothing here knows what
the lowering or the passes produce: each kernel is compiled for C220 and
C310 with --verify-each, which runs the PTO kernel and the kernel after the
lowering and after every pass and fails on the first difference in any
output bit, race, deadlock or flag left set. Exits 1 naming the first
kernel that fails (kept in WORKDIR).
"""

import argparse
import os
import random
import subprocess
import sys

BINARY = ["add", "sub", "mul", "div", "max", "min"]
SCALAR = ["adds", "subs", "muls", "divs", "maxs", "mins"]
# Unary ops on any value; log and sqrt take abs first, so the kernels
# compute numbers, not NaNs (NaNs would compare too, bit for bit). tanh,
# sigmoid and erf are Ascend C's math library functions.
UNARY = ["exp", "abs", "relu", "recip", "tanh", "sigmoid", "erf"]
POSITIVE = ["log", "sqrt", "rsqrt"]
EXPAND = ["add", "sub", "mul", "max", "min"]
PREDICATES = ["eq", "ne", "lt", "le", "gt", "ge"]
FOLDS = ["sum", "max", "min", "prod"]
ROUNDS = ["", " round rint", " round floor", " round ceil", " round trunc",
          " round round", " round odd"]


class Kernel:
    def __init__(self, rng, index):
        self.rng = rng
        self.name = "k%d" % index
        self.element = rng.choice(["f32", "f32", "f16"])
        self.tile_rows = rng.choice([1, 2, 3, 8, 16])
        self.cols = rng.choice([8, 24, 40, 64, 72, 128, 200])
        self.tiles = rng.randint(1, 5)
        self.repeats = rng.choice([1, 1, 2])
        self.rows = self.tile_rows * self.tiles
        # A ragged last tile: its valid rows fewer than the tile's.
        self.ragged = self.tile_rows > 1 and rng.random() < 0.4
        if self.ragged:
            self.rows -= rng.randint(1, self.tile_rows - 1)
        self.inputs = rng.randint(1, 3)
        # An R x 1 input combined with every row (row_expand_<op>).
        self.column = rng.random() < 0.5
        # A tile's valid shape is not followed through scf.if results.
        self.branch = not self.ragged and rng.random() < 0.4
        self.lines = []
        self.counter = 0

    def tile_type(self):
        return "!pto.tile<%dx%dx%s, vec>" % (self.tile_rows, self.cols,
                                             self.element)

    def column_tile(self):
        return "!pto.tile<%dx1x%s, vec>" % (self.tile_rows, self.element)

    def column_tensor(self):
        return "!pto.tensor<%dx1x%s>" % (self.rows, self.element)

    def tensor_type(self):
        return "!pto.tensor<%dx%dx%s>" % (self.rows, self.cols, self.element)

    def fresh(self):
        self.counter += 1
        return "%%v%d" % self.counter

    def paddable(self):
        """Whether fillpad's lowering takes this tile's columns: rows of
        whole 32-byte blocks (one masked duplicate per 256-byte repeat)."""
        row_bytes = self.cols * (4 if self.element == "f32" else 2)
        return row_bytes % 32 == 0

    def turnable(self):
        """Whether a row prefix sum (transpose, col_cumsum, transpose back)
        takes this tile: its rows, turned into columns, fill whole 32-byte
        blocks."""
        return self.tile_rows * (4 if self.element == "f32" else 2) % 32 == 0

    def aligned(self):
        """Whether each row starts on a 32-byte boundary, as a row-wise
        instruction's operand (col_cumsum, iota) needs."""
        return self.cols * (4 if self.element == "f32" else 2) % 32 == 0

    def selectable(self):
        """Whether Ascend C's Compare and Select take this tile: whole
        256-byte repeats."""
        tile_bytes = self.tile_rows * self.cols * (4 if self.element == "f32" else 2)
        return tile_bytes % 256 == 0

    def emit(self, depth, text):
        self.lines.append("  " * depth + text)

    def expression(self, depth, values, size, column=None):
        """Emits `size` random ops over `values` (and the column tile, when
        given); returns the last value."""
        tile = self.tile_type()
        values = list(values)
        for _ in range(size):
            roll = self.rng.random()
            out = self.fresh()
            # (Not in a branch: once a tile has a valid shape, the lowering
            # follows none through scf results.)
            if self.paddable() and not self.branch and self.rng.random() < 0.25:
                # The columns from a random one on (and, in a ragged tile,
                # the rows past the valid ones) padded; a ragged tile then
                # gets its valid rows back for the store.
                keep = self.fresh()
                self.emit(depth, "%s = arith.constant %d : index"
                          % (keep, self.rng.randint(0, self.cols)))
                rows = "%valid" if self.ragged else "%step"
                narrowed = self.fresh()
                self.emit(depth, "%s = pto.tile.set_validshape %s[%s, %s] : %s"
                          % (narrowed, self.rng.choice(values), rows, keep, tile))
                padded = out if not self.ragged else self.fresh()
                self.emit(depth, "%s = pto.tile.fillpad %s, %s : %s"
                          % (padded, narrowed,
                             self.rng.choice(["zero", "zero", "min", "max"]), tile))
                if self.ragged:
                    self.emit(depth, "%s = pto.tile.set_validshape %s[%%valid, %%cols] : %s"
                              % (out, padded, tile))
            elif self.selectable() and self.rng.random() < 0.15:
                # A compare and a select by its mask (Ascend C's bit mask:
                # whole 256-byte repeats), of two values or a value and
                # the scalar.
                mask = self.fresh()
                mask_type = tile.replace(self.element, "i1")
                a, b = self.rng.choice(values), self.rng.choice(values)
                pred = self.rng.choice(PREDICATES)
                if self.rng.random() < 0.5:
                    self.emit(depth, "%s = pto.tile.cmp %s, %s, %s : %s, %s -> %s"
                              % (mask, pred, a, b, tile, tile, mask_type))
                else:
                    self.emit(depth, "%s = pto.tile.cmps %s, %s, %%s : %s, %s -> %s"
                              % (mask, pred, a, tile, self.element, mask_type))
                if self.rng.random() < 0.5:
                    self.emit(depth, "%s = pto.tile.sel %s, %s, %s : %s, %s, %s -> %s"
                              % (out, mask, a, b, mask_type, tile, tile, tile))
                else:
                    self.emit(depth, "%s = pto.tile.sels %s, %s, %%s : %s, %s, %s -> %s"
                              % (out, mask, b, mask_type, tile, self.element, tile))
            elif self.rng.random() < 0.15 and self.aligned():
                # A row or column fold of one value combined back with every
                # row or column of another (the API's Reduce reads rows of
                # whole 32-byte blocks).
                axis = self.rng.choice(["row", "col"])
                narrow = ("!pto.tile<%dx1x%s, vec>" % (self.tile_rows, self.element)
                          if axis == "row" else
                          "!pto.tile<1x%dx%s, vec>" % (self.cols, self.element))
                folded = self.fresh()
                if axis == "row" and self.selectable() and self.rng.random() < 0.3:
                    # The column of each row's max or min, as a number
                    # (exact in f16 and f32 below 2048 columns).
                    found, column_of = self.fresh(), self.fresh()
                    self.emit(depth, "%s, %s = pto.tile.row_arg%s %s : %s -> %s, %s"
                              % (found, column_of, self.rng.choice(["max", "min"]),
                                 self.rng.choice(values), tile, narrow,
                                 "!pto.tile<%dx1xi32, vec>" % self.tile_rows))
                    self.emit(depth, "%s = pto.tile.cast %s : %s -> %s"
                              % (folded, column_of,
                                 "!pto.tile<%dx1xi32, vec>" % self.tile_rows, narrow))
                else:
                    self.emit(depth, "%s = pto.tile.%s_%s %s : %s -> %s"
                              % (folded, axis, self.rng.choice(FOLDS),
                                 self.rng.choice(values), tile, narrow))
                self.emit(depth, "%s = pto.tile.%s_expand_%s %s, %s : %s, %s"
                          % (out, axis, self.rng.choice(EXPAND),
                             self.rng.choice(values), folded, tile, narrow))
            elif self.aligned() and self.rng.random() < 0.1:
                # A prefix sum down the columns or along the rows, or an
                # index sequence along the rows (ascending or descending from
                # the scalar) added.
                if self.rng.random() < 0.5:
                    axis = ("row" if self.turnable() and self.rng.random() < 0.5
                            else "col")
                    self.emit(depth, "%s = pto.tile.%s_cumsum %s : %s"
                              % (out, axis, self.rng.choice(values), tile))
                else:
                    sequence = self.fresh()
                    self.emit(depth, "%s = pto.tile.iota %%s%s : %s -> %s"
                              % (sequence, self.rng.choice(["", " descending"]),
                                 self.element, tile))
                    self.emit(depth, "%s = pto.tile.add %s, %s : %s"
                              % (out, self.rng.choice(values), sequence, tile))
            elif column and roll < 0.2:
                ops = EXPAND + (["expdif"] if self.element == "f32" else [])
                op = self.rng.choice(ops)
                lhs = self.rng.choice(values)
                if op == "expdif":  # bounded: exp of at most 2
                    small = self.fresh()
                    self.emit(depth, "%s = pto.tile.mins %s, %%one : %s, %s -> %s"
                              % (small, lhs, tile, self.element, tile))
                    lhs = small
                self.emit(depth, "%s = pto.tile.row_expand_%s %s, %s : %s, %s"
                          % (out, op, lhs, column, tile, self.column_tile()))
            elif roll < 0.35 and len(values) > 1:
                a, b = self.rng.sample(values, 2)
                op = self.rng.choice(BINARY)
                if op == "div":  # keep the divisor away from zero
                    positive = self.fresh()
                    self.emit(depth, "%s = pto.tile.abs %s : %s" % (positive, b, tile))
                    shifted = self.fresh()
                    self.emit(depth, "%s = pto.tile.adds %s, %%one : %s, %s -> %s"
                              % (shifted, positive, tile, self.element, tile))
                    b = shifted
                self.emit(depth, "%s = pto.tile.%s %s, %s : %s" % (out, op, a, b, tile))
            elif roll < 0.55:
                op = self.rng.choice(SCALAR)
                self.emit(depth, "%s = pto.tile.%s %s, %%s : %s, %s -> %s"
                          % (out, op, self.rng.choice(values), tile,
                             self.element, tile))
            elif roll < 0.7:
                # A cast to the other float type and back, rounding each way
                # with a random mode.
                other = "f16" if self.element == "f32" else "f32"
                there = tile.replace(self.element, other)
                middle = self.fresh()
                self.emit(depth, "%s = pto.tile.cast %s%s : %s -> %s"
                          % (middle, self.rng.choice(values),
                             self.rng.choice(ROUNDS), tile, there))
                self.emit(depth, "%s = pto.tile.cast %s%s : %s -> %s"
                          % (out, middle, self.rng.choice(ROUNDS), there, tile))
            elif roll < 0.88:
                op = self.rng.choice(UNARY)
                src = self.rng.choice(values)
                if op in ("exp", "recip"):  # bounded, and away from zero
                    small = self.fresh()
                    self.emit(depth, "%s = pto.tile.mins %s, %%one : %s, %s -> %s"
                              % (small, src, tile, self.element, tile))
                    src = self.fresh()
                    self.emit(depth, "%s = pto.tile.maxs %s, %%one : %s, %s -> %s"
                              % (src, small, tile, self.element, tile))
                self.emit(depth, "%s = pto.tile.%s %s : %s" % (out, op, src, tile))
            else:
                op = self.rng.choice(POSITIVE)
                positive = self.fresh()
                self.emit(depth, "%s = pto.tile.abs %s : %s"
                          % (positive, self.rng.choice(values), tile))
                shifted = self.fresh()
                self.emit(depth, "%s = pto.tile.adds %s, %%one : %s, %s -> %s"
                          % (shifted, positive, tile, self.element, tile))
                self.emit(depth, "%s = pto.tile.%s %s : %s" % (out, op, shifted, tile))
            values.append(out)
        return values[-1]

    def body(self, depth, row, out):
        tile = self.tile_type()
        loaded = []
        valid = ""
        if self.ragged:
            self.emit(depth, "%%left = arith.subi %%end, %s : index" % row)
            self.emit(depth, "%valid = arith.minui %left, %step : index")
            valid = " valid [%valid, %cols]"
        for k in range(self.inputs):
            value = self.fresh()
            self.emit(depth, "%s = pto.tile.load %%x%d[%s, %%c0]%s : %s -> %s"
                      % (value, k, row, valid, self.tensor_type(), tile))
            loaded.append(value)
        column = None
        if self.column:
            column = self.fresh()
            self.emit(depth, "%s = pto.tile.load %%col[%s, %%c0]%s : %s -> %s"
                      % (column, row,
                         " valid [%valid, %onecol]" if self.ragged else "",
                         self.column_tensor(), self.column_tile()))
        if self.branch:
            result = self.fresh()
            self.emit(depth, "%s = scf.if %%flag -> (%s) {" % (result, tile))
            self.emit(depth + 1, "scf.yield %s : %s"
                      % (self.expression(depth + 1, loaded, self.rng.randint(1, 4),
                                         column), tile))
            self.emit(depth, "} else {")
            self.emit(depth + 1, "scf.yield %s : %s"
                      % (self.expression(depth + 1, loaded, self.rng.randint(1, 4),
                                         column), tile))
            self.emit(depth, "}")
        else:
            result = self.expression(depth, loaded, self.rng.randint(1, 6), column)
        stored = self.fresh()
        self.emit(depth, "%s = pto.tile.store %s, %s[%s, %%c0] : %s -> %s"
                  % (stored, result, out, row, tile, self.tensor_type()))
        return stored

    def text(self):
        tensor = self.tensor_type()
        args = ", ".join("%%x%d: %s" % (k, tensor) for k in range(self.inputs))
        if self.column:
            args += ", %%col: %s" % self.column_tensor()
        head = [
            "func.func @%s(%s, %%y: %s, %%s: %s, %%flag: i1) -> %s"
            % (self.name, args, tensor, self.element, tensor),
            "    attributes {pto.kind = #pto.kind<incore>} {",
            "  %c0 = arith.constant 0 : index",
            "  %%step = arith.constant %d : index" % self.tile_rows,
            "  %%end = arith.constant %d : index" % self.rows,
            "  %%one = arith.constant 1.0 : %s" % self.element,
            "  %%cols = arith.constant %d : index" % self.cols,
            "  %onecol = arith.constant 1 : index",
        ]
        self.lines = []
        if self.repeats > 1:
            # An outer loop around the tile loop: the same output again.
            self.emit(1, "%%c%d = arith.constant %d : index" % (self.repeats, self.repeats))
            self.emit(1, "%c1 = arith.constant 1 : index")
            self.emit(1, "%%outer = scf.for %%r = %%c0 to %%c%d step %%c1 "
                         "iter_args(%%o = %%y) -> (%s) {" % (self.repeats, tensor))
            inner, out, depth = "%inner", "%o", 2
        else:
            inner, out, depth = "%outer", "%y", 1
        self.emit(depth, "%s = scf.for %%row = %%c0 to %%end step %%step "
                         "iter_args(%%out = %s) -> (%s) {" % (inner, out, tensor))
        stored = self.body(depth + 1, "%row", "%out")
        self.emit(depth + 1, "scf.yield %s : %s" % (stored, tensor))
        self.emit(depth, "}")
        if self.repeats > 1:
            self.emit(2, "scf.yield %%inner : %s" % tensor)
            self.emit(1, "}")
        return "\n".join(head + self.lines + ["  return %%outer : %s" % tensor, "}", ""])

    def input_options(self, seed):
        shape = "%dx%d:%s" % (self.rows, self.cols, self.element)
        options = []
        for k in range(self.inputs):
            options += ["--input", "x%d=rand:%s:%d" % (k, shape, seed + k)]
        if self.column:
            options += ["--input", "col=rand:%dx1:%s:%d"
                        % (self.rows, self.element, seed + 99)]
        return options + ["--input", "y=zeros:" + shape,
                       "--input", "s=%g" % (self.rng.choice([-1.5, 0.25, 3.0])),
                       "--input", "flag=%d" % self.rng.randint(0, 1)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tilekit")
    parser.add_argument("workdir")
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write-only", action="store_true",
                        help="write the kernels into WORKDIR, compile none "
                             "(seeds for the fuzz-verify-each target)")
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    rng = random.Random(args.seed)
    compiled = padded = indexed = 0
    for index in range(args.count):
        kernel = Kernel(rng, index)
        path = os.path.join(args.workdir, kernel.name + ".mlir")
        text = kernel.text()
        padded += "pto.tile.fillpad" in text
        indexed += ("pto.tile.col_cumsum" in text or "pto.tile.iota" in text
                    or "pto.tile.row_arg" in text)
        with open(path, "w") as f:
            f.write(text)
        if args.write_only:
            continue
        inputs = kernel.input_options(args.seed * 1000 + index)
        for arch in ("c220", "c310"):
            command = [args.tilekit, "compile", path, "--arch=" + arch,
                       "--verify-each", "--save-ir", args.workdir,
                       "-o", os.devnull] + inputs
            if rng.random() < 0.3:
                command.append("--lower-to-l0")
            result = subprocess.run(command, capture_output=True, text=True)
            if result.returncode != 0:
                sys.stderr.write(result.stderr)
                sys.exit("FAILED: %s\n(%s)" % (" ".join(command), path))
            compiled += 1
    print("%d kernels (%d with padded columns, %d with prefix sums, index "
          "sequences or arg folds) compiled %d times; every pass kept every "
          "output bit"
          % (args.count, padded, indexed, compiled))


if __name__ == "__main__":
    main()
