#!/usr/bin/python3
"""What `tilekit compile` costs on the examples, and what the compiled kernel
costs to run next to the PTO kernel it came from.

    benchmarks/compile_examples.py [BUILD_DIR] [--repeat N]

For each example (softmax, rmsnorm, layernorm, GEMM, the mixed kernel, flash
attention with head dimension 64 and 128, the mixed flash attention) and each
architecture, times whole processes, N runs interleaved,
and prints min and median:

* `tilekit compile KERNEL --arch=A -o OUT` (lowering and the pipeline);
* the same with `--verify-each` on the example's inputs (the kernel run
  before the lowering, after it and after every pass);
* `tilekit run` of the PTO kernel and of the compiled AscendC kernel on the
  same inputs, side by side: the AscendC executor runs instruction by
  instruction with the race detector, the PTO executor tile op by tile op.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

EXAMPLES = {
    "softmax": ["x=rand:1024x128:f32:1", "y=zeros:1024x128:f32"],
    "rmsnorm": ["x=rand:1024x256:f32:1", "gamma=rand:1x256:f32:2",
                "y=zeros:1024x256:f32"],
    "layernorm": ["x=rand:1024x128:f16:1", "gamma=rand:1x128:f32:2",
                  "beta=rand:1x128:f32:3", "y=zeros:1024x128:f16"],
    "gemm": ["a=rand:256x256:f16:1", "b=rand:256x256:f16:2",
             "c=zeros:256x256:f32"],
    "mixed_scaled_matmul": ["x=rand:1024x64:f32:1", "w=rand:64x64:f16:2",
                            "y=zeros:1024x64:f32"],
    "flash_attention": ["q=rand:512x64:f16:1", "kt=rand:64x512:f16:2",
                        "v=rand:512x64:f16:3", "o=zeros:512x64:f32"],
    "flash_attention_d128": ["q=rand:512x128:f16:1", "kt=rand:128x512:f16:2",
                             "v=rand:512x128:f16:3", "o=zeros:512x128:f32"],
    "flash_attention_mixed": ["q=rand:512x128:f16:1", "kt=rand:128x512:f16:2",
                              "v=rand:512x128:f16:3", "o=zeros:512x128:f32"],
}


def timed(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    args = sys.argv[1:]
    repeat = 5
    if "--repeat" in args:
        at = args.index("--repeat")
        repeat = int(args[at + 1])
        del args[at:at + 2]
    build = args[0] if args else "build"
    tilekit = os.path.join(build, "bin", "tilekit")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    work = tempfile.mkdtemp(prefix="tilekit-compile-bench-")
    print("%-22s %-5s %-13s %-13s %-13s %-13s" %
          ("example", "arch", "compile", "verify-each", "run PTO", "run AscendC"))
    for name, inputs in EXAMPLES.items():
        kernel = os.path.join(root, "examples", name + ".mlir")
        options = [word for value in inputs for word in ("--input", value)]
        for arch in ("c220", "c310"):
            out = os.path.join(work, "%s.%s.mlir" % (name, arch))
            compile_ = [tilekit, "compile", kernel, "--arch=" + arch, "-o", out]
            verify = compile_ + ["--verify-each", "--save-ir", work] + options
            subprocess.run(compile_, check=True, stdout=subprocess.DEVNULL)
            commands = {
                "compile": compile_,
                "verify-each": verify,
                "run PTO": [tilekit, "run", kernel] + options,
                "run AscendC": [tilekit, "run", out] + options,
            }
            times = {key: [] for key in commands}
            for _ in range(repeat):
                for key, command in commands.items():
                    times[key].append(timed(command))
            cells = ["%.3f/%.3f" % (min(t), statistics.median(t))
                     for t in times.values()]
            print("%-22s %-5s %-13s %-13s %-13s %-13s" % ((name, arch) + tuple(cells)))
    print("seconds, min/median of %d interleaved runs of each whole command" % repeat)


if __name__ == "__main__":
    main()
