"""Random register scopes: the executor against the compiled helpers.

usage: random_vf.py SEED COUNT OUTDIR WORKER

Each kernel loads a 1x1024 arena into UB bytes [0, 4096) and makes views
of it at random 32-byte aligned addresses and sizes (so captures overlap
each other and the arena), then runs one scope of random loads, masked and
unmasked stores, arithmetic, compares and selects over them, and stores
the arena and every view to GM. Each kernel goes through `tilekit compile
--emit=vf-bundle` and one tilekit-vf-worker, and its outputs must equal
`tilekit run`'s to the bit; a kernel whose helper needs barriers, compiled
without them, must be rejected by admission. Prints one line per kernel
and a summary.
"""
import os
import random
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "examples", "vf"))
from vf_worker import Bundle, Worker, run_executor, same_bits  # noqa: E402

seed, count, outdir, worker_binary = (int(sys.argv[1]), int(sys.argv[2]),
                                      sys.argv[3], sys.argv[4])
ARENA = 1024


def kernel(rng, name):
    views = []
    for _ in range(rng.randint(1, 4)):
        elements = rng.choice([64, 128, 192, 256, 512])
        addr = rng.randrange(0, (ARENA - elements) // 8 + 1) * 32
        views.append((elements, addr))
    arena = "!pto.tile<1x%dxf32, vec, addr = 0>" % ARENA
    types = [arena] + ["!pto.tile<1x%dxf32, vec, addr = %d>" % v for v in views]
    args = ["%%a%d" % i for i in range(len(types))]  # outside the scope
    inner = ["%%b%d" % i for i in range(len(types))]  # its block arguments
    body, regs, masks, stored = [], [], [], set()
    counter = [0]

    def fresh(prefix):
        counter[0] += 1
        return "%%%s%d" % (prefix, counter[0])

    def tile():
        i = rng.randrange(len(types))
        elements = ARENA if i == 0 else views[i - 1][0]
        return i, rng.randrange(0, (elements - 64) // 8 + 1) * 8

    for _ in range(rng.randint(4, 24)):
        kind = rng.random()
        if kind < 0.3 or not regs:
            i, off = tile()
            r = fresh("r")
            body.append("%s = pto.vreg.load %s[%d] : %s" % (r, inner[i], off, types[i]))
            regs.append(r)
        elif kind < 0.55:
            i, off = tile()
            mask = ""
            if masks and rng.random() < 0.6:
                mask = " mask " + rng.choice(masks)
            body.append("pto.vreg.store %s, %s[%d]%s : %s" % (
                rng.choice(regs), inner[i], off, mask, types[i]))
            stored.add(i)
        elif kind < 0.75:
            op = rng.choice(["add", "sub", "mul", "max", "min", "div"])
            r = fresh("r")
            body.append("%s = pto.vreg.%s %s, %s" % (r, op, rng.choice(regs), rng.choice(regs)))
            regs.append(r)
        elif kind < 0.85:
            m = fresh("m")
            which = rng.random()
            if which < 0.25:
                body.append("%s = pto.vreg.prefix_mask %d" % (m, rng.randint(0, 64)))
            elif which < 0.5:
                body.append("%s = pto.vreg.suffix_mask %d" % (m, rng.randint(0, 64)))
            elif which < 0.75:
                body.append("%s = pto.vreg.runtime_mask %%ns from %d : index" % (m, rng.randrange(0, 128, 8)))
            else:
                body.append("%s = pto.vreg.cmp %s, %s, %s" % (
                    m, rng.choice(["eq", "ne", "lt", "le", "gt", "ge"]),
                    rng.choice(regs), rng.choice(regs)))
            masks.append(m)
        elif kind < 0.92 and masks:
            r = fresh("r")
            body.append("%s = pto.vreg.select %s, %s, %s" % (
                r, rng.choice(masks), rng.choice(regs), rng.choice(regs)))
            regs.append(r)
        else:
            r = fresh("r")
            body.append("%s = pto.vreg.broadcast %%ss : f32" % r)
            regs.append(r)
    # The arena is always yielded: its bytes change through the views, and
    # the value before the scope is stale after it.
    stored.add(0)
    yielded = sorted(stored)
    results = ["%%y%d" % i for i in yielded]
    outs = ["%%o%d" % i for i in range(len(types))]
    lines = ["func.func @%s(%%x: !pto.tensor<1x%dxf32>, %s, %%s: f32, %%n: index)"
             " -> (%s) attributes {pto.kind = #pto.kind<aiv>} {" % (
                 name, ARENA, ", ".join("%s: !pto.tensor<1x%dxf32>" % (o, ARENA if i == 0 else views[i - 1][0])
                                         for i, o in enumerate(outs)),
                 ", ".join("!pto.tensor<1x%dxf32>" % (ARENA if i == 0 else views[i - 1][0]) for i in range(len(types))))]
    lines.append("  %c0 = arith.constant 0 : index")
    lines.append("  %%a0 = pto.tile.load %%x[%%c0, %%c0] : !pto.tensor<1x%dxf32> -> %s" % (ARENA, arena))
    for i in range(1, len(types)):
        lines.append("  %s = pto.tile.create : %s" % (args[i], types[i]))
    lhs = (", ".join(results) + " = ") if results else ""
    lines.append("  %spto.reg_scope (%s, %%s, %%n) : (%s, f32, index) -> (%s) {" % (
        lhs, ", ".join(args), ", ".join(types), ", ".join(types[i] for i in yielded)))
    lines.append("  ^bb0(%s, %%ss: f32, %%ns: index):" % ", ".join(
        "%s: %s" % (a, t) for a, t in zip(inner, types)))
    lines += ["    " + b for b in body]
    lines.append("    pto.reg_scope.yield%s" % (
        (" " + ", ".join(inner[i] for i in yielded) + " : " + ", ".join(types[i] for i in yielded))
        if yielded else ""))
    lines.append("  }")
    final = {i: ("%%y%d" % i if i in stored else args[i]) for i in range(len(types))}
    rets = []
    for i in range(len(types)):
        shape = ARENA if i == 0 else views[i - 1][0]
        if i != 0 and i not in stored:
            # A view the scope did not write is a pto.tile.create: its
            # contents are undefined to the executor, so it is not stored.
            rets.append(outs[i])
            continue
        r = "%%w%d" % i
        lines.append("  %s = pto.tile.store %s, %s[%%c0, %%c0] : %s -> !pto.tensor<1x%dxf32>" % (
            r, final[i], outs[i], types[i], shape))
        rets.append(r)
    lines.append("  return %s : %s" % (", ".join(rets), ", ".join(
        "!pto.tensor<1x%dxf32>" % (ARENA if i == 0 else views[i - 1][0]) for i in range(len(types)))))
    lines.append("}")
    return "\n".join(lines) + "\n", [ARENA] + [v[0] for v in views]


rng = random.Random(seed)
data = np.random.default_rng(seed)
worker = Worker(worker_binary)
os.makedirs(outdir, exist_ok=True)
env = dict(os.environ, TILEKIT_CACHE_DIR=os.path.join(outdir, "cache"))
ops = rejected = 0
for k in range(count):
    name = "random%d" % k
    text, sizes = kernel(rng, name)
    ops += text.count("pto.vreg.")
    path = os.path.join(outdir, name + ".mlir")
    with open(path, "w") as f:
        f.write(text)
    subprocess.run(["tilekit", "compile", path, "--emit=vf-bundle", "-o",
                    os.path.join(outdir, name)], env=env, check=True,
                   stderr=subprocess.DEVNULL)
    bundle = Bundle(os.path.join(outdir, name))
    x = data.standard_normal((1, ARENA), dtype=np.float32)
    # Small integers too, so that compares find equal lanes.
    x[0, ::3] = np.round(x[0, ::3])
    values = {"x": x, "s": float(np.float32(data.standard_normal())), "n": int(data.integers(0, 200))}
    for i, size in enumerate(sizes):
        values["o%d" % i] = np.full((1, size), -99.0, np.float32)
    outputs, _ = worker.run(bundle, values)
    names = ["o%d" % i for i in range(len(sizes))]
    reference = run_executor("tilekit", path, values, names, flags=["--undefined=check"])
    for name in names:
        want, got = reference[name], outputs[name]
        if not same_bits(want, got):
            bad = np.flatnonzero(want.view(np.uint32) != got.view(np.uint32))
            sys.exit("FAIL %s output %s differs at %s: executor %s, worker %s"
                     % (path, name, bad[:6], want[0, bad[:3]], got[0, bad[:3]]))
    barriers = bundle.manifest["helpers"][0]["barriers"]
    if barriers:
        # Without its barriers, admission must reject the helper.
        omitted = subprocess.run(
            ["tilekit", "compile", path, "--emit=vf-bundle", "--test-vf-omit-barriers",
             "-o", os.path.join(outdir, name + "-nobarriers")],
            env=env, capture_output=True, text=True)
        if omitted.returncode == 0 or "is not admitted" not in omitted.stderr:
            sys.exit("FAIL %s: admitted without its %d barrier(s)" % (path, barriers))
        rejected += 1
    print("%s: %d captures, %d helper barrier(s), equal" % (name, len(sizes), barriers))
assert worker.alive() and worker.runs == count
worker.close()
print("random vf: %d kernels, %d register ops, every output equal to the executor; "
      "admission rejected all %d that lost their barriers" % (count, ops, rejected))
