#!/usr/bin/env python3
"""Random orchestrations that compute on whole tensors, through `tilekit
compile --verify-each`.

    random_tensor_programs.py TILEKIT WORKDIR [--count N] [--seed S]
                              [--compiled N]

Each program (f32, f16 or i32; tensors of one, two or three dimensions of
odd static shapes) is a random sequence of the orchestration's data ops:
elementwise unary, binary and scalar ops, casts to the other float type
and back, fills, element writes (in place, into inputs too), slices inside
and past the edge of a tensor combined and assembled back at an offset,
row folds of float rows of whole 32-byte blocks (Ascend C folds no
integers on C220), and a matmul of a float value (as f16) by a square f16
input, the input transposed or not (b_trans), into f32. Its last value is
assembled into the output. Nothing here knows what compile writes for
them: each program is compiled for C220 and C310 (alternately lowered to
L0) with --verify-each, which runs the orchestration before and after
every pass (pto-outline-tensor-compute first) and fails on the first
difference in any output bit. With --compiled N, the first N programs'
C220 kernels (their launches on every core, sharing the orchestration's
workspaces) also run as C++ (`run --compiled`) and must equal the
executor's run of the program to the bit. Exits 1 naming the first program
that fails (kept in WORKDIR).
"""

import argparse
import os
import random
import subprocess
import sys

FLOAT_UNARY = ["abs", "neg", "relu", "exp"]
INT_UNARY = ["abs", "neg", "relu"]
BINARY = ["add", "sub", "mul", "max", "min"]
SCALAR = ["adds", "muls", "maxs", "mins"]
FOLDS = ["row_sum", "row_max", "row_min"]


class Program:
    def __init__(self, rng, index):
        self.rng = rng
        self.name = "p%d" % index
        self.element = rng.choice(["f32", "f16", "i32"])
        rank = rng.choice([1, 2, 2, 3])
        shape = [rng.randint(1, 40), rng.randint(1, 100)]
        if rank == 1:
            shape = [rng.randint(1, 300)]
        if rank == 3:
            shape = [rng.randint(1, 3)] + shape
        self.shape = shape
        self.lines = []
        self.values = 0
        self.folded = False
        self.multiplied = False

    def type(self, shape=None, element=None):
        dims = "x".join(str(d) for d in (shape or self.shape))
        return "!pto.tensor<%sx%s>" % (dims, element or self.element)

    def fresh(self):
        self.values += 1
        return "%%v%d" % self.values

    def index(self, value):
        return "%%c%d" % value

    def scalar(self):
        if self.element == "i32":
            return "%s_%s" % (self.rng.randint(-5, 5), "i32")
        return "%s_%s" % (self.rng.choice(["0.5", "-1.25", "2.0", "0.0"]),
                          self.element)

    def constant(self, text):
        value, kind = text.rsplit("_", 1)
        name = "%%k%d" % len(self.lines)
        if kind != "i32" and "." not in value:
            value += ".0"
        self.lines.append("  %s = arith.constant %s : %s" % (name, value, kind))
        return name

    def step(self, live):
        rng = self.rng
        kinds = ["unary", "binary", "scalar", "full", "write", "box"]
        if self.element != "i32":
            kinds.append("cast")
        if (len(self.shape) == 2 and not self.folded and self.element != "i32"
                and self.shape[1] * (2 if self.element == "f16" else 4) % 32 == 0):
            kinds.append("fold")
        if len(self.shape) == 2 and not self.multiplied and self.element != "i32":
            kinds.append("matmul")
        kind = rng.choice(kinds)
        t = self.type()
        a = rng.choice(live)
        out = self.fresh()
        if kind == "unary":
            op = rng.choice(INT_UNARY if self.element == "i32" else FLOAT_UNARY)
            if op == "exp":  # keep it finite: exp of a value in [-1, 1]
                lo = self.constant("-1.0_" + self.element)
                hi = self.constant("1.0_" + self.element)
                c1 = self.fresh()
                self.lines.append("  %s = pto.tensor.maxs %s, %s : %s, %s" % (c1, a, lo, t, self.element))
                c2 = self.fresh()
                self.lines.append("  %s = pto.tensor.mins %s, %s : %s, %s" % (c2, c1, hi, t, self.element))
                a = c2
            self.lines.append("  %s = pto.tensor.%s %s : %s" % (out, op, a, t))
        elif kind == "binary":
            b = rng.choice(live)
            op = rng.choice(BINARY)
            self.lines.append("  %s = pto.tensor.%s %s, %s : %s" % (out, op, a, b, t))
        elif kind == "scalar":
            s = self.constant(self.scalar())
            op = rng.choice(SCALAR)
            self.lines.append("  %s = pto.tensor.%s %s, %s : %s, %s" % (out, op, a, s, t, self.element))
        elif kind == "full":
            s = self.constant(self.scalar())
            self.lines.append("  %s = pto.tensor.full %s : %s -> %s" % (out, s, self.element, t))
        elif kind == "write":
            s = self.constant(self.scalar())
            at = ", ".join(self.index(rng.randrange(d)) for d in self.shape)
            self.lines.append("  %s = pto.tensor.write %s, %s[%s] : %s" % (out, s, a, at, t))
            live.remove(a)  # the write's result is the same buffer
        elif kind == "cast":
            other = "f16" if self.element == "f32" else "f32"
            mid = self.fresh()
            self.lines.append("  %s = pto.tensor.cast %s : %s -> %s" % (mid, a, t, self.type(element=other)))
            self.lines.append("  %s = pto.tensor.cast %s : %s -> %s" % (out, mid, self.type(element=other), t))
        elif kind == "matmul":
            # a @ w or a @ w^T: f16 operands, an f32 product; w is C x C, so
            # the value keeps its shape.
            side = [self.shape[1], self.shape[1]]
            half = a
            if self.element == "f32":
                half = self.fresh()
                self.lines.append("  %s = pto.tensor.cast %s : %s -> %s" % (
                    half, a, t, self.type(element="f16")))
            product = out if self.element == "f32" else self.fresh()
            self.lines.append("  %s = pto.tensor.matmul %s, %%w%s : %s, %s -> %s" % (
                product, half, rng.choice(["", " {b_trans}"]),
                self.type(element="f16"), self.type(side, "f16"),
                self.type(element="f32")))
            if self.element == "f16":
                self.lines.append("  %s = pto.tensor.cast %s : %s -> %s" % (
                    out, product, self.type(element="f32"), t))
            self.multiplied = True
        elif kind == "fold":
            op = rng.choice(FOLDS)
            rows = self.type([self.shape[0], 1])
            self.lines.append("  %s = pto.tensor.%s %s : %s -> %s" % (out, op, a, t, rows))
            self.lines.append("  %%fo = pto.tensor.assemble %s into %%f[%%c0, %%c0] : %s into %s" % (out, rows, rows))
            self.folded = True
            return
        else:
            # A box of `a` (which may reach past its edge), doubled, and
            # assembled into another value at an offset where it fits.
            box = [rng.randint(1, d) for d in self.shape]
            at = [rng.randrange(d) for d in self.shape]
            into = [rng.randint(0, d - b) for d, b in zip(self.shape, box)]
            bt = self.type(box)
            part, twice = self.fresh(), self.fresh()
            self.lines.append("  %s = pto.tensor.slice %s[%s] : %s -> %s" % (
                part, a, ", ".join(self.index(i) for i in at), t, bt))
            self.lines.append("  %s = pto.tensor.add %s, %s : %s" % (twice, part, part, bt))
            target = rng.choice(live)
            self.lines.append("  %s = pto.tensor.assemble %s into %s[%s] : %s into %s" % (
                out, twice, target, ", ".join(self.index(i) for i in into), bt, t))
            live.remove(target)
        live.append(out)

    def text(self):
        live = ["%x", "%y"]
        for _ in range(self.rng.randint(2, 7)):
            self.step(live)
        t = self.type()
        last = live[-1]
        indices = max(self.shape + [40])
        consts = "".join("  %%c%d = arith.constant %d : index\n" % (i, i) for i in range(indices + 1))
        zeros = ", ".join("%c0" for _ in self.shape)
        args = "%%x: %s, %%y: %s, %%o: %s" % (t, t, t)
        if self.folded:
            args += ", %%f: %s" % self.type([self.shape[0], 1])
        if self.multiplied:
            args += ", %%w: %s" % self.type([self.shape[1]] * 2, "f16")
        return ("func.func @%s(%s) -> %s\n"
                "    attributes {pto.kind = #pto.kind<orchestration>} {\n"
                "%s%s\n"
                "  %%r = pto.tensor.assemble %s into %%o[%s] : %s into %s\n"
                "  return %%r : %s\n}\n" % (
                    self.name, args, t, consts, "\n".join(self.lines), last,
                    zeros, t, t, t))

    def inputs(self, seed):
        dims = "x".join(str(d) for d in self.shape)
        bound = ["--input", "x=rand:%s:%s:%d" % (dims, self.element, seed),
                 "--input", "y=rand:%s:%s:%d" % (dims, self.element, seed + 1),
                 "--input", "o=zeros:%s:%s" % (dims, self.element)]
        if self.folded:
            bound += ["--input", "f=zeros:%dx1:%s" % (self.shape[0], self.element)]
        if self.multiplied:
            bound += ["--input", "w=rand:%dx%d:f16:%d" % (self.shape[1], self.shape[1], seed + 2)]
        return bound


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tilekit")
    parser.add_argument("workdir")
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compiled", type=int, default=0)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    rng = random.Random(args.seed)
    compiles = ran = 0
    for index in range(args.count):
        program = Program(rng, index)
        path = os.path.join(args.workdir, program.name + ".mlir")
        with open(path, "w") as f:
            f.write(program.text())
        inputs = program.inputs(index * 2 + 1)
        for arch, l0 in (("c220", index % 2 == 1), ("c310", index % 2 == 0)):
            command = [args.tilekit, "compile", path, "--arch=" + arch,
                       "--verify-each", "-o", os.devnull] + inputs
            if l0:
                command.append("--lower-to-l0")
            done = subprocess.run(command, capture_output=True, text=True)
            compiles += 1
            if done.returncode != 0 or "outputs equal" not in done.stderr:
                print("FAILED: %s\n%s" % (" ".join(command), done.stderr))
                return 1
        if index < args.compiled:
            if not run_compiled(args.tilekit, path, inputs):
                return 1
            ran += 1
    print("%d programs compiled %d times; every pass kept every output bit"
          % (args.count, compiles))
    if args.compiled:
        print("%d compiled C++ runs equal the executor's" % ran)
    return 0


def run_compiled(tilekit, path, inputs):
    """The executor's output of the program, then its C220 kernels as C++
    on the same inputs, compared exactly."""
    stem = path[:-len(".mlir")]
    steps = [
        [tilekit, "compile", path, "--arch=c220", "-o", stem + ".c220.mlir"],
        [tilekit, "run", path, "--output", "o=" + stem + ".o.npy"] + inputs,
        [tilekit, "run", stem + ".c220.mlir", "--compiled", "--expect",
         "o=" + stem + ".o.npy", "--rtol", "0", "--atol", "0"] + inputs,
    ]
    for command in steps:
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0 or "MISMATCH" in done.stdout:
            print("FAILED: %s\n%s%s" % (" ".join(command), done.stdout,
                                        done.stderr))
            return False
    return True


if __name__ == "__main__":
    sys.exit(main())
