#!/usr/bin/env python3
"""Random mixed (cube + vector) AscendC kernels, for the synchronization
passes and the checker.

Each kernel is a random nest of `scf.for` loops, `scf.if` branches (some
with an else) and core groups. The groups hand storages between the cores:
L1 tensors the vector core fills from UB and the cube reads, UB tensors the
cube fills by fixpipe and the vector core reads and rewrites, and GM
arguments either core writes and the other reads. With `--arch c220` the
cores meet in GM only, as on A2/A3: instead of the direct handoffs the
vector core computes in UB and the cube copies L1 to GM (MTE1). Nothing
here knows where flags belong; the pipelines insert them and `ascendc-verify-sync` proves
the result. The kernels are written to stdout, separated by `// -----`.
"""

import argparse
import random

F16 = "!ascendc.local_tensor<16x16xf16>"
F32 = "!ascendc.local_tensor<16x16xf32>"
GM = "!ascendc.global_tensor<16x16xf32>"


class Kernel:
    def __init__(self, rng, index, arch):
        self.rng = rng
        self.direct = arch == "c310"  # L0C -> UB and UB -> L1
        self.index = index
        self.lines = []
        self.values = 0
        self.l1 = rng.randint(1, 3)
        self.ub = rng.randint(1, 3)
        self.gm = rng.randint(1, 2)

    def vector_op(self):
        kind = self.rng.randrange(4)
        if kind == 0 and self.direct:
            k = self.rng.randrange(self.l1)
            return f"ascendc.data_copy %l1_{k}, %src : {F16}, {F16}"
        if kind <= 1:
            k = self.rng.randrange(self.ub)
            return f"ascendc.exp_l2 %ub_{k}, %ub_{k}, %c256 : {F32}, {F32}"
        if kind == 2:
            k = self.rng.randrange(self.gm)
            return f"ascendc.data_copy %gm_{k}, %out : {GM}, {F32}"
        k = self.rng.randrange(self.gm)
        return f"ascendc.data_copy %in, %gm_{k} : {F32}, {GM}"

    def cube_op(self):
        kind = self.rng.randrange(4)
        if kind == 0:
            k = self.rng.randrange(self.l1)
            return f"ascendc.load_data %l0a, %l1_{k} : {F16}, {F16}"
        if kind == 1 and self.direct:
            k = self.rng.randrange(self.ub)
            return f"ascendc.fixpipe %ub_{k}, %acc : {F32}, {F32}"
        if kind == 1:
            k = self.rng.randrange(self.gm)
            return f"ascendc.data_copy %gm_{k}, %l1in : {GM}, {F32}"
        if kind == 2:
            k = self.rng.randrange(self.gm)
            return f"ascendc.fixpipe %gm_{k}, %acc : {GM}, {F32}"
        k = self.rng.randrange(self.gm)
        return f"ascendc.data_copy %l1in, %gm_{k} : {F32}, {GM}"

    def emit(self, depth, text):
        self.lines.append("  " * depth + text)

    def items(self, depth, count):
        for _ in range(count):
            roll = self.rng.random()
            if depth < 4 and roll < 0.2:
                self.emit(depth, "scf.for %i{} = %c0 to %n step %c1 {{".format(
                    self.fresh()))
                self.items(depth + 1, self.rng.randint(1, 3))
                self.emit(depth, "}")
            elif depth < 4 and roll < 0.35:
                self.emit(depth, "scf.if %p{} {{".format(self.rng.randrange(2)))
                self.items(depth + 1, self.rng.randint(1, 2))
                if self.rng.random() < 0.4:
                    self.emit(depth, "} else {")
                    self.items(depth + 1, self.rng.randint(1, 2))
                self.emit(depth, "}")
            else:
                cube = self.rng.random() < 0.5
                self.emit(depth, "ascendc.if_aic {" if cube else "ascendc.if_aiv {")
                for _ in range(self.rng.randint(1, 3)):
                    self.emit(depth + 1, self.cube_op() if cube else self.vector_op())
                self.emit(depth, "}")

    def fresh(self):
        self.values += 1
        return self.values

    def text(self):
        gms = ", ".join(f"%gm_{k}: {GM}" for k in range(self.gm))
        head = [
            f"func.func @kernel{self.index}(%n: index, %p0: i1, %p1: i1, {gms}) {{",
            "  %c0 = arith.constant 0 : index",
            "  %c1 = arith.constant 1 : index",
            "  %c256 = arith.constant 256 : index",
            f"  %src = ascendc.local_tensor veccalc addr 0 size 512 : {F16}",
            f"  %out = ascendc.local_tensor veccalc addr 512 size 1024 : {F32}",
            f"  %in = ascendc.local_tensor veccalc addr 1536 size 1024 : {F32}",
            f"  %l0a = ascendc.local_tensor a2 addr 0 size 512 : {F16}",
            f"  %acc = ascendc.local_tensor co1 addr 0 size 1024 : {F32}",
            f"  %l1in = ascendc.local_tensor a1 addr 0 size 1024 : {F32}",
        ]
        for k in range(self.l1):
            head.append(f"  %l1_{k} = ascendc.local_tensor a1 addr {1024 + 512 * k} size 512 : {F16}")
        for k in range(self.ub):
            head.append(f"  %ub_{k} = ascendc.local_tensor veccalc addr {2560 + 1024 * k} size 1024 : {F32}")
        return "\n".join(head + ["  " + line for line in self.lines] + ["  return", "}"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--arch", choices=["c220", "c310"], default="c310",
                        help="c220: the cores meet in GM only")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    kernels = []
    for index in range(args.count):
        kernel = Kernel(rng, index, args.arch)
        kernel.items(0, rng.randint(2, 6))
        kernels.append(kernel.text())
    print("\n// -----\n".join(kernels))


if __name__ == "__main__":
    main()
