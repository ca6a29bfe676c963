#!/usr/bin/env python3
"""Random PTO groups through `tilekit compile --verify-each`.

    random_group_kernels.py TILEKIT WORKDIR [--count N] [--seed S] [--write-only]

Each kernel is a group of a cube function and a vector function with a
random split code (0: one lane; 1: the lanes take halves of the rows; 2:
halves of the columns) and random shapes (M x K activations, K x N
weights). Each lane loads its part of x, computes a random elementwise
expression, casts it to f16 and pushes it to the cube; the cube pops the
merged tile, multiplies it by w (sometimes in two K steps that accumulate)
and pushes the f32 product back; each lane pops its part, computes another
random expression and stores it to y (one lane returns y, and so does
its group, whose caller carries it); sometimes both cores run the
exchange in a loop of 1-3 trips (the lowering fuses the two loops), the
lanes summing the trips' results in a carried tile; or, running ahead,
the lanes push every trip's tile (each plus its trip index) before they
pop any result, through pipes of as many slots as trips, one more, or
undeclared (unbounded): the loops unroll and each tile in flight takes
its own workspace slot. An orchestration
function launches
the group for every row block of a ragged-free M. Nothing here knows what
the lowering produces: each kernel is compiled for C220 and C310 with
--verify-each, which runs the PTO kernel (on its cube and lane threads)
and the kernel after the lowering and after every pass (on both cores)
and fails on the first difference in any output bit, race, deadlock or
flag left set. Exits 1 naming the first kernel that fails (kept in
WORKDIR).
"""

import argparse
import os
import random
import subprocess
import sys

UNARY = ["relu", "abs", "exp"]
SCALAR = ["adds", "muls", "maxs", "mins"]
BINARY = ["add", "sub", "mul", "max", "min"]


class Group:
    def __init__(self, rng, index):
        self.rng = rng
        self.name = "g%d" % index
        self.split = rng.choice([0, 1, 2])
        self.lanes = 1 if self.split == 0 else 2
        self.m = rng.choice([16, 32, 64])
        self.k = rng.choice([16, 32, 64])
        self.n = rng.choice([16, 32, 64])
        self.blocks = rng.randint(1, 3)
        self.accumulate = rng.random() < 0.4 and self.k % 32 == 0
        # Trips of a loop each core runs around the exchange (0: none); the
        # lanes sum the trips' results in a carried tile.
        self.trips = rng.choice([0, 0, 1, 2, 3])
        # The lanes push every trip's tile before popping a result, through
        # `slots` slots per direction (None: no initialize_pipe).
        self.ahead = self.trips >= 2 and rng.random() < 0.5
        self.slots = rng.choice([None, self.trips, self.trips + 1])
        self.counter = 0
        # A lane's part of an M x C tile.
        self.rows = self.m // 2 if self.split == 1 else self.m

    def part(self, cols):
        return (self.rows, cols // 2 if self.split == 2 else cols)

    def fresh(self):
        self.counter += 1
        return "%%v%d" % self.counter

    def expression(self, lines, value, tile):
        """A random chain of elementwise ops on `value`, bounded so that
        exp stays finite."""
        for _ in range(self.rng.randint(1, 3)):
            out = self.fresh()
            roll = self.rng.random()
            if roll < 0.35:
                op = self.rng.choice(UNARY)
                if op == "exp":
                    small = self.fresh()
                    lines.append("  %s = pto.tile.mins %s, %%one : %s, f32 -> %s"
                                 % (small, value, tile, tile))
                    value = small
                lines.append("  %s = pto.tile.%s %s : %s" % (out, op, value, tile))
            elif roll < 0.75:
                lines.append("  %s = pto.tile.%s %s, %%s : %s, f32 -> %s"
                             % (out, self.rng.choice(SCALAR), value, tile, tile))
            else:
                lines.append("  %s = pto.tile.%s %s, %s : %s"
                             % (out, self.rng.choice(BINARY), value, value, tile))
            value = out
        return value

    def pipe(self, core):
        if not self.ahead or self.slots is None:
            return []
        return ["  pto.system.%s_initialize_pipe 0 both slot_num %d slot_size 65536"
                % (core, self.slots)]

    def text(self):
        m, k, n = self.m, self.k, self.n
        xr, xc = self.part(k)
        yr, yc = self.part(n)
        xt = "!pto.tile<%dx%dxf32, vec>" % (xr, xc)
        xh = "!pto.tile<%dx%dxf16, vec>" % (xr, xc)
        yt = "!pto.tile<%dx%dxf32, vec>" % (yr, yc)
        args = ("%%x: !pto.tensor<?x%dxf32>, %%w: !pto.tensor<%dx%dxf16>, "
                "%%y: !pto.tensor<?x%dxf32>, %%s: f32, %%m0: index" % (k, k, n, n))
        lines = []
        # The cube: w into the right operand, the lanes' tile into the left
        # one (whole, or in two K steps), the product back to the lanes.
        lines.append("func.func @%s_aic(%s) attributes {pto.kind = #pto.kind<aic>} {"
                     % (self.name, args))
        lines.append("  %c0 = arith.constant 0 : index")
        lines.append("  %c1 = arith.constant 1 : index")
        lines.append("  %%trips = arith.constant %d : index" % self.trips)
        lines += self.pipe("aic")
        lines.append("  %%w1 = pto.tile.load %%w[%%c0, %%c0] : !pto.tensor<%dx%dxf16> -> "
                     "!pto.tile<%dx%dxf16, mat>" % (k, n, k, n))
        lines.append("  %%wr = pto.tile.move %%w1 : !pto.tile<%dx%dxf16, mat> -> "
                     "!pto.tile<%dx%dxf16, right>" % (k, n, k, n))
        if self.trips:
            lines.append("  scf.for %i = %c0 to %trips step %c1 {")
        lines.append("  %%a1 = pto.tile.tpop_from_aiv split %d : !pto.tile<%dx%dxf16, mat>"
                     % (self.split, m, k))
        lines.append("  %%al = pto.tile.move %%a1 : !pto.tile<%dx%dxf16, mat> -> "
                     "!pto.tile<%dx%dxf16, left>" % (m, k, m, k))
        lines.append("  %%c = pto.tile.matmul %%al, %%wr : !pto.tile<%dx%dxf16, left>, "
                     "!pto.tile<%dx%dxf16, right> -> !pto.tile<%dx%dxf32, acc>"
                     % (m, k, k, n, m, n))
        result = "%c"
        if self.accumulate:
            # The same product once more, accumulated: C + A @ W.
            lines.append("  %%c2 = pto.tile.matmul_acc %%c, %%al, %%wr : "
                         "!pto.tile<%dx%dxf32, acc>, !pto.tile<%dx%dxf16, left>, "
                         "!pto.tile<%dx%dxf16, right>" % (m, n, m, k, k, n))
            result = "%c2"
        lines.append("  pto.tile.tpush_to_aiv %s split %d : !pto.tile<%dx%dxf32, acc>"
                     % (result, self.split, m, n))
        if self.trips:
            lines.append("  }")
        lines.append("  return")
        lines.append("}")
        # The lanes.
        # One lane returns the tensor it stored to (the group returns what
        # it returns); two lanes may not.
        result = " -> !pto.tensor<?x%dxf32>" % n if self.split == 0 else ""
        lines.append("func.func @%s_aiv(%s)%s attributes {pto.kind = #pto.kind<aiv>, "
                     "pto.split = %d : i32} {" % (self.name, args, result, self.split))
        lines.append("  %c0 = arith.constant 0 : index")
        lines.append("  %one = arith.constant 1.0 : f32")
        lines += self.pipe("aiv")
        lines.append("  %lane = pto.tile.get_subblock_idx")
        lines.append("  %%rows = arith.constant %d : index" % (xr if self.split == 1 else 0))
        lines.append("  %%xcols = arith.constant %d : index" % (xc if self.split == 2 else 0))
        lines.append("  %%ycols = arith.constant %d : index" % (yc if self.split == 2 else 0))
        lines.append("  %lr = arith.muli %lane, %rows : index")
        lines.append("  %row = arith.addi %m0, %lr : index")
        lines.append("  %xc = arith.muli %lane, %xcols : index")
        lines.append("  %yc = arith.muli %lane, %ycols : index")
        lines.append("  %%t = pto.tile.load %%x[%%row, %%xc] : !pto.tensor<?x%dxf32> -> %s"
                     % (k, xt))
        if self.trips:
            lines.append("  %c1 = arith.constant 1 : index")
            lines.append("  %%trips = arith.constant %d : index" % self.trips)
            lines.append("  %zero = arith.constant 0.0 : f32")
            lines.append("  %%sum0 = pto.tile.full %%zero : f32 -> %s" % yt)
        if self.ahead:
            # Every trip's tile first, each plus its trip index.
            lines.append("  scf.for %i = %c0 to %trips step %c1 {")
            lines.append("  %ii = arith.index_cast %i : index to i32")
            lines.append("  %if = arith.sitofp %ii : i32 to f32")
            value = self.expression(lines, "%t", xt)
            bumped = self.fresh()
            lines.append("  %s = pto.tile.adds %s, %%if : %s, f32 -> %s"
                         % (bumped, value, xt, xt))
            lines.append("  %%h = pto.tile.cast %s round rint : %s -> %s" % (bumped, xt, xh))
            lines.append("  pto.tile.tpush_to_aic %%h split %d : %s" % (self.split, xh))
            lines.append("  }")
        if self.trips:
            lines.append("  %%sum = scf.for %%i = %%c0 to %%trips step %%c1 "
                         "iter_args(%%acc = %%sum0) -> (%s) {" % yt)
        if not self.ahead:
            value = self.expression(lines, "%t", xt)
            lines.append("  %%h = pto.tile.cast %s round rint : %s -> %s" % (value, xt, xh))
            lines.append("  pto.tile.tpush_to_aic %%h split %d : %s" % (self.split, xh))
        lines.append("  %%r = pto.tile.tpop_from_aic split %d : %s" % (self.split, yt))
        value = self.expression(lines, "%r", yt)
        if self.trips:
            total = self.fresh()
            lines.append("  %s = pto.tile.add %%acc, %s : %s" % (total, value, yt))
            lines.append("  scf.yield %s : %s" % (total, yt))
            lines.append("  }")
            value = "%sum"
        lines.append("  %%o = pto.tile.store %s, %%y[%%row, %%yc] : %s -> !pto.tensor<?x%dxf32>"
                     % (value, yt, n))
        lines.append("  return" + (" %%o : !pto.tensor<?x%dxf32>" % n if result else ""))
        lines.append("}")
        lines.append("func.func @%s(%s)%s attributes {pto.kind = #pto.kind<group>, "
                     "pto.split = %d : i32} {" % (self.name, args, result, self.split))
        lines.append("  return" + (" %%y : !pto.tensor<?x%dxf32>" % n if result else ""))
        lines.append("}")
        # The launches.
        lines.append("func.func @main(%%x: !pto.tensor<?x%dxf32>, %%w: !pto.tensor<%dx%dxf16>, "
                     "%%y: !pto.tensor<?x%dxf32>, %%s: f32) -> !pto.tensor<?x%dxf32> "
                     "attributes {pto.kind = #pto.kind<orchestration>} {" % (k, k, n, n, n))
        lines.append("  %c0 = arith.constant 0 : index")
        lines.append("  %%step = arith.constant %d : index" % m)
        lines.append("  %%rows = pto.tensor.dim %%x, 0 : !pto.tensor<?x%dxf32>" % k)
        if result:
            lines.append("  %%out = scf.for %%m0 = %%c0 to %%rows step %%step "
                         "iter_args(%%cur = %%y) -> (!pto.tensor<?x%dxf32>) {" % n)
            lines.append("    %%next = func.call @%s(%%x, %%w, %%cur, %%s, %%m0) : "
                         "(!pto.tensor<?x%dxf32>, !pto.tensor<%dx%dxf16>, "
                         "!pto.tensor<?x%dxf32>, f32, index) -> !pto.tensor<?x%dxf32>"
                         % (self.name, k, k, n, n, n))
            lines.append("    scf.yield %%next : !pto.tensor<?x%dxf32>" % n)
            lines.append("  }")
            lines.append("  return %%out : !pto.tensor<?x%dxf32>" % n)
        else:
            lines.append("  scf.for %m0 = %c0 to %rows step %step {")
            lines.append("    func.call @%s(%%x, %%w, %%y, %%s, %%m0) : (!pto.tensor<?x%dxf32>, "
                         "!pto.tensor<%dx%dxf16>, !pto.tensor<?x%dxf32>, f32, index) -> ()"
                         % (self.name, k, k, n, n))
            lines.append("  }")
            lines.append("  return %%y : !pto.tensor<?x%dxf32>" % n)
        lines.append("}")
        return "\n".join(lines) + "\n"

    def input_options(self, seed):
        rows = self.m * self.blocks
        return ["--input", "x=rand:%dx%d:f32:%d" % (rows, self.k, seed),
                "--input", "w=rand:%dx%d:f16:%d" % (self.k, self.n, seed + 1),
                "--input", "y=rand:%dx%d:f32:%d" % (rows, self.n, seed + 2),
                "--input", "s=%g" % self.rng.choice([-0.5, 0.25, 2.0])]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tilekit")
    parser.add_argument("workdir")
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write-only", action="store_true",
                        help="write the kernels into WORKDIR, compile none "
                             "(seeds for the fuzz-verify-each target)")
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    rng = random.Random(args.seed)
    splits = set()
    looped = ahead = 0
    for index in range(args.count):
        group = Group(rng, index)
        splits.add(group.split)
        looped += group.trips > 0
        ahead += group.ahead
        path = os.path.join(args.workdir, group.name + ".mlir")
        with open(path, "w") as f:
            f.write(group.text())
        if args.write_only:
            continue
        inputs = group.input_options(args.seed * 1000 + 10 * index)
        for arch in ("c220", "c310"):
            command = [args.tilekit, "compile", path, "--arch=" + arch,
                       "--verify-each", "--save-ir", args.workdir,
                       "-o", os.devnull] + inputs
            result = subprocess.run(command, capture_output=True, text=True)
            if result.returncode != 0:
                sys.stderr.write(result.stderr)
                sys.exit("FAILED: %s\n(%s)" % (" ".join(command), path))
    print("%d groups (split codes %s, %d in loops, %d running ahead) compiled "
          "%d times; every pass kept every output bit"
          % (args.count, ",".join(str(s) for s in sorted(splits)), looped,
             ahead, 2 * args.count))


if __name__ == "__main__":
    main()
