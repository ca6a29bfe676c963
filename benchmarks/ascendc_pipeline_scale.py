#!/usr/bin/python3
"""How the AscendC pipelines scale with kernel size.

    benchmarks/ascendc_pipeline_scale.py [BUILD_DIR] [--sizes 2000,20000,80000]
                                         [--repeat N] [--timing]

Generates mixed cube + vector kernels of about N ops: blocks of a cube
matmul written to GM that the vector core rectifies, as in
examples/ascendc/matmul_relu.mlir, with 16x16 tiles, one pair of core
groups per block, all on one set of tensors. Runs
`tilekit-opt -ascendc-c220-pipeline` and `-ascendc-c310-pipeline` on each
as a whole process (min and median of N runs, interleaved), and prints the
time per op. `--timing` adds MLIR's per-pass timing of the largest size,
to show which pass dominates.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

# One block: the cube core multiplies into GM, the vector core rectifies it.
# The tensors are declared once (TENSORS) and every block reuses them, so
# the kernel fits the buffers at any size.
TENSORS = """    %xl1 = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16x16xf16>
    %wl1 = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16x16xf16>
    %a = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x16xf16>
    %b = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<16x16xf16>
    %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
    %in = ascendc.local_tensor_auto vecin input : !ascendc.local_tensor<16x16xf32>
    %out = ascendc.local_tensor_auto vecout output : !ascendc.local_tensor<16x16xf32>
"""
BLOCK = """    ascendc.if_aic {
      ascendc.data_copy %xl1, %x : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
      ascendc.data_copy %wl1, %w : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
      ascendc.load_data %a, %xl1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.load_data %b, %wl1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.mmad %acc, %a, %b m %c16 n %c16 k %c16 : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.fixpipe %y, %acc : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    }
    ascendc.if_aiv {
      ascendc.data_copy %in, %y : !ascendc.local_tensor<16x16xf32>, !ascendc.global_tensor<16x16xf32>
      ascendc.maxs_l2 %out, %in, %zero, %c256 : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>, f32
      ascendc.data_copy %z, %out : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    }
"""
OPS_PER_BLOCK = 13  # the ops of BLOCK, regions' terminators included


def kernel(ops):
    blocks = max(1, ops // OPS_PER_BLOCK)
    return (
        "func.func @scale(%x: !ascendc.global_tensor<16x16xf16>, "
        "%w: !ascendc.global_tensor<16x16xf16>, "
        "%y: !ascendc.global_tensor<16x16xf32>, "
        "%z: !ascendc.global_tensor<16x16xf32>) {\n"
        "    %c16 = arith.constant 16 : index\n"
        "    %c256 = arith.constant 256 : index\n"
        "    %zero = arith.constant 0.0 : f32\n"
        + TENSORS + BLOCK * blocks
        + "    return\n  }\n"), blocks * OPS_PER_BLOCK


def main(argv):
    build, sizes, repeat, timing = "build", [2000, 20000, 80000], 3, False
    rest = list(argv)
    while rest:
        word = rest.pop(0)
        if word == "--sizes":
            sizes = [int(s) for s in rest.pop(0).split(",")]
        elif word == "--repeat":
            repeat = int(rest.pop(0))
        elif word == "--timing":
            timing = True
        else:
            build = word
    opt = os.path.join(build, "bin", "tilekit-opt")
    work = tempfile.mkdtemp(prefix="tilekit-ascendc-scale-")
    print("%8s  %-6s %9s %9s %11s" % ("ops", "arch", "min s", "median s",
                                       "us/op (min)"))
    for size in sizes:
        text, ops = kernel(size)
        path = os.path.join(work, "scale_%d.mlir" % size)
        with open(path, "w") as f:
            f.write(text)
        commands = {arch: [opt, path, "-ascendc-%s-pipeline" % arch,
                           "-o", os.devnull] for arch in ("c220", "c310")}
        times = {arch: [] for arch in commands}
        for _ in range(repeat):
            for arch, command in commands.items():
                start = time.perf_counter()
                subprocess.run(command, check=True)
                times[arch].append(time.perf_counter() - start)
        for arch in commands:
            best = min(times[arch])
            print("%8d  %-6s %9.3f %9.3f %11.2f" % (
                ops, arch, best, statistics.median(times[arch]),
                best / ops * 1e6))
        sys.stdout.flush()
    if timing:
        subprocess.run(commands["c220"][:-2] + ["-o", os.devnull,
                                                "--mlir-timing"], check=True)


if __name__ == "__main__":
    main(sys.argv[1:])
