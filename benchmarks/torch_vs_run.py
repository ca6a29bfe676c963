#!/usr/bin/python3
"""How fast the emitted PyTorch reference runs next to `tilekit run`.

    benchmarks/torch_vs_run.py [BUILD_DIR] [--repeat N] [--only A,B]
                               [--threads N]

For every example at the size the run-speed goals name (see EXAMPLES): generates the inputs with
examples/golden.py, emits the script with `tilekit emit --target=torch`, then
times (min and median of N rounds, the three interleaved)
  * `tilekit run` as a whole process (parse, verify, load .npy, execute),
  * `tilekit check` on the same kernel: the process's fixed cost (start,
    parse, verify), so that `run - check` is roughly the execution alone,
  * the script's entry function called in-process (torch already imported,
    inputs already tensors): what a user of the script pays per call,
and prints them, the net execution time and the ratios. Both sides use one
thread (`tilekit run --threads 1`, one torch thread). `--threads N` adds a
fourth interleaved action, `tilekit run --threads N`, and its speedup over
one thread. Checks each script's output against
`tilekit run --expect` so the timed scripts are known to be right.
Needs Debian's python3-numpy and python3-torch (/usr/bin/python3).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# kernel (examples/KERNEL.mlir, or a path from the root), golden generator and sizes, entry,
# arguments (input file or zeros spec), output argument index, tolerance
# flags for --expect. The sizes are the ones the run-speed goals name:
# softmax and layernorm over 4 M elements (32768 rows of the examples' 128
# columns, as many elements as 4096 x 1024), GEMM 1024^3, flash attention
# S = 2048 with D = 128.
EXAMPLES = [
    ("softmax", "softmax", [32768], "softmax",
     ["x", "zeros:32768x128:f32"], 1, []),
    ("rmsnorm", "rmsnorm", [16384], "rmsnorm",
     ["x", "gamma", "zeros:16384x256:f32"], 2, []),
    ("layernorm", "layernorm", [32768], "layernorm",
     ["x", "gamma", "beta", "zeros:32768x128:f16"], 3, []),
    ("gemm", "gemm", [1024, 1024, 1024], "gemm",
     ["a", "b", "zeros:1024x1024:f32"], 2, ["--atol", "1e-3"]),
    ("benchmarks/kernels/gemm_128x256x64", "gemm", [1024, 1024, 1024], "gemm",
     ["a", "b", "zeros:1024x1024:f32"], 2, ["--atol", "1e-3"]),
    ("flash_attention_d128", "flash_attention", [2048, 128], "attention",
     ["q", "kt", "v", "zeros:2048x128:f32"], 3,
     ["--atol", "2e-3", "--rtol", "1e-2"]),
    ("mixed_scaled_matmul", "mixed_scaled_matmul", [8192], "main",
     ["x", "w", "zeros:8192x64:f32"], 2, ["--atol", "1e-4"]),
]

TYPES = {"f32": torch.float32, "f16": torch.float16}


def argument(spec, directory):
    if spec.startswith("zeros:"):
        _, shape, dtype = spec.split(":")
        return torch.zeros([int(d) for d in shape.split("x")], dtype=TYPES[dtype])
    return torch.from_numpy(np.load(os.path.join(directory, spec + ".npy")).copy())


def run_flags(names, directory):
    flags = []
    for spec, name in names:
        source = spec if spec.startswith("zeros:") else \
            os.path.join(directory, spec + ".npy")
        flags += ["--input", name + "=" + source]
    return flags


def argument_names(kernel, entry):
    # The entry's argument names, in order, from its signature.
    text = open(kernel).read()
    head = text[text.index("func.func @" + entry + "("):]
    head = head[:head.index(")")]
    return [part.split(":")[0].strip().lstrip("%")
            for part in head[head.index("(") + 1:].split(",") if "%" in part]


def interleaved(repeat, actions):
    """(min, median) seconds of each action, the actions taking turns in
    every round so that a slow spell of the machine hits them alike."""
    seconds = [[] for _ in actions]
    for _ in range(repeat):
        for times, action in zip(seconds, actions):
            start = time.perf_counter()
            action()
            times.append(time.perf_counter() - start)
    return [(min(t), statistics.median(t)) for t in seconds]


def main(argv):
    build = "build"
    repeat = 3
    only = []
    threads = None
    rest = list(argv)
    while rest:
        word = rest.pop(0)
        if word == "--repeat":
            repeat = int(rest.pop(0))
        elif word == "--only":
            only = rest.pop(0).split(",")
        elif word == "--threads":
            threads = rest.pop(0)
        else:
            build = word
    tilekit = os.path.join(build, "bin", "tilekit")
    work = tempfile.mkdtemp(prefix="tilekit-torch-bench-")
    torch.set_num_threads(1)
    print("%-21s %15s  %15s  %15s  %7s  %15s" % (
        "", "tilekit run s", "tilekit check s", "torch call s", "net s",
        "torch / tilekit") + ("  %15s  %7s" % ("--threads " + threads + " s",
                                               "speedup") if threads else ""))
    print("%-21s %7s %7s  %7s %7s  %7s %7s  %7s  %7s %7s" % (
        "example", "min", "median", "min", "median", "min", "median",
        "median", "run", "net") + ("  %7s %7s  %7s" % ("min", "median", "net")
                                   if threads else ""))
    for name, golden, sizes, entry, specs, out_index, tolerance in EXAMPLES:
        if only and os.path.basename(name) not in only:
            continue
        kernel = os.path.join(ROOT, name + ".mlir") if "/" in name else \
            os.path.join(ROOT, "examples", name + ".mlir")
        name = os.path.basename(name)
        data = os.path.join(work, name)
        subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "examples", "golden.py"),
                        golden, data] + [str(s) for s in sizes], check=True)
        script = os.path.join(work, name + ".py")
        subprocess.run([tilekit, "emit", "--target=torch", kernel, "-o", script],
                       check=True)
        names = argument_names(kernel, entry)
        flags = run_flags(zip(specs, names), data)

        namespace = {"__name__": "tilekit_script"}
        exec(compile(open(script).read(), script, "exec"), namespace)
        function = namespace[entry]
        calls = []

        def call():
            args = [argument(spec, data) for spec in specs]
            calls.append(args)
            function(*args)

        command = [tilekit, "run", kernel, "--threads", "1"] + flags
        parallel = [tilekit, "run", kernel, "--threads", threads or "1"] + flags

        def quiet(argv):
            return lambda: subprocess.run(argv, check=True,
                                          stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL)
        actions = [call, quiet(command), quiet([tilekit, "check", kernel])]
        if threads:
            actions.append(quiet(parallel))
        times = interleaved(repeat, actions)
        (torch_t, run_t, check_t) = times[:3]
        result = os.path.join(data, "torch_out.npy")
        np.save(result, calls[-1][out_index].numpy())
        check = subprocess.run(command + ["--expect", names[out_index] + "=" + result]
                               + tolerance, capture_output=True, text=True)
        if check.returncode != 0:
            sys.exit("%s: the script disagrees with tilekit run:\n%s%s"
                     % (name, check.stdout, check.stderr))
        net = run_t[1] - check_t[1]
        line = ("%-21s %7.4f %7.4f  %7.4f %7.4f  %7.4f %7.4f  %7.4f  %7.2f %7.2f"
                % (name, run_t[0], run_t[1], check_t[0], check_t[1],
                   torch_t[0], torch_t[1], net, torch_t[1] / run_t[1],
                   torch_t[1] / net))
        if threads:
            parallel_t = times[3]
            line += "  %7.4f %7.4f  %7.2f" % (
                parallel_t[0], parallel_t[1],
                net / (parallel_t[1] - check_t[1]))
        print(line)
        sys.stdout.flush()
    if not only or "sgemm" in only:
        # The floor for the GEMMs: one f32 matmul of the same flops in
        # torch (its BLAS, one thread), inputs already tensors.
        a = torch.randn(1024, 1024)
        b = torch.randn(1024, 1024)
        (mm_t,) = interleaved(repeat, [lambda: torch.mm(a, b)])
        print("%-21s %7s %7s  %7s %7s  %7.4f %7.4f" % (
            "sgemm 1024^3 (torch)", "", "", "", "", mm_t[0], mm_t[1]))
    print("net = run - check (medians): the execution without process start, "
          "parse and verify; torch / tilekit = ratio of medians (above 1: the "
          "script is slower); one torch thread; %d interleaved rounds%s" % (
              repeat, "; speedup net = net / (threads run - check)"
              if threads else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
