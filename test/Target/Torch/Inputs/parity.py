"""Numeric parity of `tilekit run` and the emitted torch script on the
edges of arithmetic: every elementwise (tile-tile and tile-scalar), unary,
reduction, cast and compare op, at tile and tensor level, and the scalar
arith ops with machine-defined edge results, for each element type.

    parity.py WORKDIR

The inputs are 16x16: x[i][j] = S[i] and y[i][j] = S[j] for 16 special
values S of the element type (NaN, +-inf, +-0, subnormals, the extremes,
halves; for integers the minimum, maximum, -1, 0 and shift amounts at and
past the width), so every op sees every pair. For each element type and
family the script writes one kernel, runs it once through `tilekit run`
and once through the script (in this process), and compares every output
bit for bit (NaNs compare equal whatever their payload). Only exp, log,
tanh, sigmoid and erf may differ, by one unit in the last place of the
element type (torch's vectorized kernels against libm). Prints one line per kernel and exits 1
on any difference.
"""
import os
import subprocess
import sys

import numpy as np
import torch

FLOATS = ["f32", "f16", "bf16"]
INTS = ["i8", "i16", "i32"]
TORCH = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
         "i8": torch.int8, "i16": torch.int16, "i32": torch.int32,
         "i1": torch.bool}
NUMPY = {"f32": np.float32, "f16": np.float16, "bf16": np.float32,
         "i8": np.int8, "i16": np.int16, "i32": np.int32, "i1": np.bool_}
BITS = {"i8": 8, "i16": 16, "i32": 32}
SUBNORMAL = {"f32": 1e-45, "f16": 6e-8, "bf16": 9.2e-41}
BINARY = ["add", "sub", "mul", "div", "max", "min", "rem"]
BITWISE = ["and", "or", "xor", "shl", "shr"]
UNARY_FLOAT = ["neg", "exp", "log", "sqrt", "rsqrt", "recip", "abs", "relu",
               "tanh", "sigmoid", "erf"]
UNARY_INT = ["neg", "abs", "relu", "not"]
TRANSCENDENTAL = {"exp", "log", "tanh", "sigmoid", "erf", "row_expand_expdif",
                  "col_expand_expdif"}
PREDICATES = ["eq", "ne", "lt", "le", "gt", "ge"]
REDUCTIONS = ["row_sum", "row_max", "row_min", "row_prod",
              "col_sum", "col_max", "col_min", "col_prod"]
ROUNDING = ["none", "rint", "round", "floor", "ceil", "trunc", "odd"]
# Scalar arith ops whose edge results the machine defines.
ARITH_FLOAT = ["maximumf", "minimumf", "maxnumf", "minnumf"]
ARITH_INT = ["divsi", "remsi", "floordivsi", "ceildivsi", "shli", "shrsi",
             "shrui"]


def specials(dtype):
    if dtype in FLOATS:
        big = {"f32": 3.0e38, "f16": 65504.0, "bf16": 3.0e38}[dtype]
        tiny = SUBNORMAL[dtype]
        values = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, -2.5,
                  0.5, tiny, -tiny, big, -big, 3.0e9, -7.0]
        t = torch.tensor(values, dtype=torch.float32).to(TORCH[dtype])
        return t.to(torch.float32).numpy()
    bits = BITS[dtype]
    low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return np.array([low, high, -1, 0, 1, 2, -2, 3, 7, bits - 1, bits,
                     min(63, high), min(64, high), -min(64, high), low + 1,
                     high - 1], dtype=np.int64)


def tile(dtype, shape=(16, 16)):
    return "!pto.tile<%dx%dx%s, vec>" % (shape[0], shape[1], dtype)


def tensor(dtype, shape=(16, 16)):
    return "!pto.tensor<%dx%dx%s>" % (shape[0], shape[1], dtype)


class Kernel:
    """One function: loads its tile inputs, computes named outputs, stores
    each into a tensor argument of its own."""

    def __init__(self, name, inputs, scalars=()):
        self.name, self.inputs, self.scalars = name, inputs, list(scalars)
        self.body, self.outputs = [], []

    def load(self, arg, dtype):
        return ("%%%s_t = pto.tile.load %%%s[%%c0, %%c0] : %s -> %s"
                % (arg, arg, tensor(dtype), tile(dtype)))

    def out(self, name, value, dtype, shape=(16, 16)):
        self.outputs.append((name, dtype, shape))
        self.body.append("%%%s_s = pto.tile.store %s, %%%s[%%c0, %%c0] : %s -> %s"
                         % (name, value, name, tile(dtype, shape),
                            tensor(dtype, shape)))

    def text(self):
        args = ["%%%s: %s" % (a, tensor(d)) for a, d in self.inputs]
        args += ["%%%s: %s" % (s, d) for s, d in self.scalars]
        args += ["%%%s: %s" % (n, tensor(d, s)) for n, d, s in self.outputs]
        lines = ["func.func @%s(%s) {" % (self.name, ", ".join(args)),
                 "  %c0 = arith.constant 0 : index"]
        lines += ["  " + self.load(a, d) for a, d in self.inputs]
        lines += ["  " + line for line in self.body]
        return "\n".join(lines + ["  return", "}", ""])


def elementwise_kernels(dtype):
    kernels = []
    t = tile(dtype)
    ops = BINARY + (BITWISE if dtype in INTS else [])
    k = Kernel("binary_" + dtype, [("x", dtype), ("y", dtype), ("z", dtype)])
    for op in ops:
        # z is y without zeros: an integer division by zero is an error.
        rhs = "%z_t" if op in ("div", "rem") else "%y_t"
        k.body.append("%%%s = pto.tile.%s %%x_t, %s : %s" % (op, op, rhs, t))
        k.out("o_" + op, "%" + op, dtype)
    kernels.append(k)
    scalar_type = "f32" if dtype in FLOATS else "i32"
    for index, value in enumerate(scalar_values(dtype)):
        k = Kernel("scalar%d_%s" % (index, dtype), [("x", dtype)],
                   [("s", scalar_type)])
        k.value = value
        for op in ops:
            if op in ("div", "rem") and value == 0:
                continue
            k.body.append("%%%ss = pto.tile.%ss %%x_t, %%s : %s, %s"
                          % (op, op, t, scalar_type))
            k.out("o_%ss" % op, "%%%ss" % op, dtype)
        for pred in PREDICATES:
            k.body.append("%%cmps_%s = pto.tile.cmps %s, %%x_t, %%s : %s, %s -> %s"
                          % (pred, pred, t, scalar_type, tile("i1")))
            k.out("o_cmps_" + pred, "%cmps_" + pred, "i1")
        kernels.append(k)
    k = Kernel("unary_" + dtype, [("x", dtype)])
    for op in UNARY_FLOAT if dtype in FLOATS else UNARY_INT:
        k.body.append("%%%s = pto.tile.%s %%x_t : %s" % (op, op, t))
        k.out("o_" + op, "%" + op, dtype)
    kernels.append(k)
    # Broadcast forms: each row (column) of x with one value of y's first
    # column (row).
    expand = ["add", "sub", "mul", "div", "max", "min"] + (
        ["expdif"] if dtype in FLOATS else [])
    k = Kernel("expand_" + dtype, [("x", dtype), ("z", dtype)])
    k.body.append("%%zr = pto.tile.load %%z[%%c0, %%c0] : %s -> %s"
                  % (tensor(dtype), tile(dtype, (16, 1))))
    k.body.append("%%zc = pto.tile.load %%z[%%c0, %%c0] : %s -> %s"
                  % (tensor(dtype), tile(dtype, (1, 16))))
    for op in expand:
        for axis, vec, shape in (("row", "%zr", (16, 1)),
                                 ("col", "%zc", (1, 16))):
            name = "%s_expand_%s" % (axis, op)
            k.body.append("%%%s = pto.tile.%s %%x_t, %s : %s, %s"
                          % (name, name, vec, t, tile(dtype, shape)))
            k.out("o_" + name, "%" + name, dtype)
    kernels.append(k)
    k = Kernel("select_" + dtype, [("x", dtype), ("y", dtype)])
    k.body.append("%%m = pto.tile.cmp lt, %%x_t, %%y_t : %s, %s -> %s"
                  % (t, t, tile("i1")))
    k.body.append("%%sel = pto.tile.sel %%m, %%x_t, %%y_t : %s, %s"
                  % (tile("i1"), t))
    k.out("o_sel", "%sel", dtype)
    scalar = "%s = arith.constant %s : %s" % (
        "%s", "-0.0" if dtype in FLOATS else "-1",
        "f32" if dtype in FLOATS else "i32")
    k.body.append(scalar % "%sv")
    k.body.append("%%sels = pto.tile.sels %%m, %%x_t, %%sv : %s, %s, %s"
                  % (tile("i1"), t, "f32" if dtype in FLOATS else "i32"))
    k.out("o_sels", "%sels", dtype)
    kernels.append(k)
    k = Kernel("compare_" + dtype, [("x", dtype), ("y", dtype)])
    for pred in PREDICATES:
        k.body.append("%%cmp_%s = pto.tile.cmp %s, %%x_t, %%y_t : %s, %s -> %s"
                      % (pred, pred, t, t, tile("i1")))
        k.out("o_cmp_" + pred, "%cmp_" + pred, "i1")
    kernels.append(k)
    k = Kernel("reduce_" + dtype, [("x", dtype)])
    for op in REDUCTIONS:
        shape = (16, 1) if op.startswith("row") else (1, 16)
        k.body.append("%%%s = pto.tile.%s %%x_t : %s -> %s"
                      % (op, op, t, tile(dtype, shape)))
        k.out("o_" + op, "%" + op, dtype, shape)
    kernels.append(k)
    k = Kernel("cast_" + dtype, [("x", dtype)])
    for target in FLOATS + INTS:
        if target == dtype:
            continue
        for mode in ROUNDING:
            name = "cast_%s_%s" % (target, mode)
            k.body.append("%%%s = pto.tile.cast %%x_t round %s : %s -> %s"
                          % (name, mode, t, tile(target)))
            k.out("o_" + name, "%" + name, target)
    kernels.append(k)
    kernels.append(arith_kernel(dtype))
    return kernels


def scalar_values(dtype):
    if dtype in FLOATS:
        return [float("nan"), -0.0, float("inf"), 2.5]
    bits = BITS[dtype]
    return [-1, bits, 64, -(1 << (bits - 1))]


def arith_kernel(dtype):
    """Scalar arith ops over every pair of elements, read and written back
    through tile.read / tile.write in a loop nest."""
    k = Kernel("arith_" + dtype, [("x", dtype), ("y", dtype), ("z", dtype)])
    t = tile(dtype)
    ops = ARITH_FLOAT if dtype in FLOATS else ARITH_INT
    casts = ["fptosi", "fptoui"] if dtype in FLOATS else []
    results = ops + ["%s_%s" % (c, i) for c in casts for i in INTS]
    body = k.body
    body.append("%c1 = arith.constant 1 : index")
    body.append("%c16 = arith.constant 16 : index")
    for r in results:
        rtype = dtype if r in ops else r.split("_")[1]
        body.append("%%%s_0 = pto.tile.create : %s" % (r, tile(rtype)))
    inits = ", ".join("%%%s_i = %%%s_0" % (r, r) for r in results)
    types = ", ".join(tile(dtype if r in ops else r.split("_")[1])
                      for r in results)
    body.append("%%rs:%d = scf.for %%i = %%c0 to %%c16 step %%c1 "
                "iter_args(%s) -> (%s) {" % (len(results), inits, types))
    inner_inits = ", ".join("%%%s_j = %%%s_i" % (r, r) for r in results)
    body.append("  %%inner:%d = scf.for %%j = %%c0 to %%c16 step %%c1 "
                "iter_args(%s) -> (%s) {" % (len(results), inner_inits, types))
    body.append("    %%a = pto.tile.read %%x_t[%%i, %%j] : %s" % t)
    body.append("    %%b = pto.tile.read %%y_t[%%i, %%j] : %s" % t)
    body.append("    %%nz = pto.tile.read %%z_t[%%i, %%j] : %s" % t)
    written = []
    for r in results:
        if r in ops:
            rhs = "%nz" if "div" in r or "rem" in r else "%b"
            body.append("    %%v_%s = arith.%s %%a, %s : %s" % (r, r, rhs, dtype))
            rtype = dtype
        else:
            cast, rtype = r.split("_")
            body.append("    %%v_%s = arith.%s %%a : %s to %s"
                        % (r, cast, dtype, rtype))
        body.append("    %%w_%s = pto.tile.write %%v_%s, %%%s_j[%%i, %%j] : %s"
                    % (r, r, r, tile(rtype)))
        written.append("%w_" + r)
    body.append("    scf.yield %s : %s" % (", ".join(written), types))
    body.append("  }")
    body.append("  scf.yield %s : %s" % (
        ", ".join("%%inner#%d" % i for i in range(len(results))), types))
    body.append("}")
    for index, r in enumerate(results):
        k.out("o_" + r, "%%rs#%d" % index, dtype if r in ops else r.split("_")[1])
    return k


def tensor_kernel(dtype):
    """The same families on GM tensors (orchestration-level ops), returned
    as results."""
    k = Kernel("tensor_" + dtype, [])
    k.inputs = []
    ops = BINARY + (BITWISE if dtype in INTS else [])
    unary = UNARY_FLOAT if dtype in FLOATS else UNARY_INT
    T = tensor(dtype)
    lines, results = [], []
    for op in ops:
        rhs = "%z" if op in ("div", "rem") else "%y"
        lines.append("%%%s = pto.tensor.%s %%x, %s : %s" % (op, op, rhs, T))
        results.append(("%" + op, T))
    for op in unary:
        lines.append("%%%s = pto.tensor.%s %%x : %s" % (op, op, T))
        results.append(("%" + op, T))
    k.result_names = [v[1:] for v, _ in results]
    for op in REDUCTIONS:
        shape = (16, 1) if op.startswith("row") else (1, 16)
        lines.append("%%%s = pto.tensor.%s %%x : %s -> %s"
                     % (op, op, T, tensor(dtype, shape)))
        results.append(("%" + op, tensor(dtype, shape)))
        k.result_names.append(op)
    target = "f32" if dtype != "f32" else "i32"
    lines.append("%%cast = pto.tensor.cast %%x round floor : %s -> %s"
                 % (T, tensor(target)))
    results.append(("%cast", tensor(target)))
    text = ["func.func @tensor_%s(%%x: %s, %%y: %s, %%z: %s) -> (%s) {"
            % (dtype, T, T, T, ", ".join(t for _, t in results))]
    text += ["  " + line for line in lines]
    text.append("  return %s : %s" % (", ".join(v for v, _ in results),
                                       ", ".join(t for _, t in results)))
    text.append("}")
    k.result_names.append("cast")
    k.result_count = len(results)
    k.text = lambda: "\n".join(text) + "\n"
    return k


def to_torch(array, dtype):
    return torch.from_numpy(np.ascontiguousarray(array)).to(TORCH[dtype])


def as_bits(array):
    """Comparable bits: floats by their f32 pattern with NaNs made one."""
    array = np.asarray(array)
    if array.dtype.kind == "f":
        f = array.astype(np.float32)
        bits = f.view(np.uint32).copy()
        bits[np.isnan(f)] = 0x7fc00000
        return bits
    return array.astype(np.int64)


def ulp_apart(a, b, dtype):
    """How many representable values of `dtype` lie between a and b."""
    def ordinal(x):
        t = torch.from_numpy(np.asarray(x, dtype=np.float32)).to(TORCH[dtype])
        i = t.view({"f32": torch.int32, "f16": torch.int16,
                    "bf16": torch.int16}[dtype]).to(torch.int64)
        return torch.where(i < 0, -(i & 0x7fffffff if dtype == "f32"
                                    else i & 0x7fff), i).numpy()
    return np.abs(ordinal(a) - ordinal(b))


def compare(label, ours, theirs, dtype, transcendental):
    same = as_bits(ours) == as_bits(theirs)
    if transcendental and dtype in FLOATS:
        a, b = np.asarray(ours, np.float32), np.asarray(theirs, np.float32)
        both_nan = np.isnan(a) & np.isnan(b)
        close = np.zeros_like(same)
        finite = ~np.isnan(a) & ~np.isnan(b)
        close[finite] = ulp_apart(a[finite], b[finite], dtype) <= 1
        same = same | both_nan | close
    if same.all():
        return None
    index = np.argwhere(~same)[0]
    return "%s differs at %s: run %r, script %r (%d elements)" % (
        label, list(index), np.asarray(ours)[tuple(index)],
        np.asarray(theirs)[tuple(index)], int((~same).sum()))


def inputs_for(dtype):
    s = specials(dtype)
    x = np.repeat(s[:, None], 16, axis=1)
    y = np.repeat(s[None, :], 16, axis=0)
    z = np.where(y == 0, 3, y) if dtype in INTS else y
    return {"x": x, "y": y, "z": z}


def main(work):
    os.makedirs(work, exist_ok=True)
    failures, checked = [], 0
    for dtype in FLOATS + INTS:
        kernels = elementwise_kernels(dtype) + [tensor_kernel(dtype)]
        source = os.path.join(work, "parity_%s.mlir" % dtype)
        with open(source, "w") as f:
            f.write("".join(k.text() for k in kernels))
        script = os.path.join(work, "parity_%s.py" % dtype)
        subprocess.run(["tilekit", "emit", "--target=torch", source, "-o",
                        script], check=True)
        namespace = {"__name__": "tilekit_script"}
        exec(compile(open(script).read(), script, "exec"), namespace)
        data = inputs_for(dtype)
        paths = {}
        for name, array in data.items():
            paths[name] = os.path.join(work, "%s_%s.npy" % (name, dtype))
            np.save(paths[name], array.astype(NUMPY[dtype]))
        for k in kernels:
            args = ["tilekit", "run", source, "--entry", k.name]
            call = []
            for name, _ in k.inputs:
                args += ["--input", "%s=%s" % (name, paths[name])]
                call.append(to_torch(data[name], dtype))
            is_tensor = hasattr(k, "result_count")
            if is_tensor:
                for name in ("x", "y", "z"):
                    args += ["--input", "%s=%s" % (name, paths[name])]
                    call.append(to_torch(data[name], dtype))
            for name, stype in k.scalars:
                text = repr(k.value) if stype == "f32" else str(k.value)
                args += ["--input", "%s=%s" % (name, text)]
                call.append(k.value)
            outs = {}
            for name, odtype, shape in k.outputs:
                args += ["--input", "%s=zeros:%dx%d:%s" % (name, shape[0],
                                                            shape[1], odtype),
                         "--output", "%s=%s" % (name, os.path.join(
                             work, "%s.%s.npy" % (k.name, name)))]
                tensor_arg = torch.zeros(shape, dtype=TORCH[odtype])
                outs[name] = tensor_arg
                call.append(tensor_arg)
            if is_tensor:
                for i in range(k.result_count):
                    args += ["--output", "result%d=%s" % (i, os.path.join(
                        work, "%s.result%d.npy" % (k.name, i)))]
            run = subprocess.run(args, capture_output=True, text=True)
            if run.returncode != 0:
                failures.append("%s: tilekit run failed: %s"
                                % (k.name, run.stderr.strip()))
                print("%s: FAILED" % k.name)
                continue
            returned = namespace[k.name](*call)
            problems = []
            if is_tensor:
                for i, value in enumerate(returned):
                    ours = np.load(os.path.join(work, "%s.result%d.npy"
                                                % (k.name, i)))
                    op = k.result_names[i]
                    problems.append(compare("%s %s" % (k.name, op), ours,
                                            value.to(torch.float32).numpy()
                                            if value.dtype == torch.bfloat16
                                            else value.numpy(), dtype,
                                            op in TRANSCENDENTAL))
                    checked += 1
            for name, odtype, _ in k.outputs:
                ours = np.load(os.path.join(work, "%s.%s.npy" % (k.name, name)))
                value = outs[name]
                theirs = value.to(torch.float32).numpy() \
                    if value.dtype == torch.bfloat16 else value.numpy()
                op = name[2:]
                problems.append(compare("%s %s" % (k.name, op), ours, theirs,
                                        odtype, op in TRANSCENDENTAL))
                checked += 1
            problems = [p for p in problems if p]
            failures += problems
            print("%s: %s" % (k.name, "ok" if not problems else "DIFFERS"))
    for failure in failures:
        print(failure)
    print("%d outputs compared, %d differ" % (checked, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
