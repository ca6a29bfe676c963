#!/usr/bin/env python3
"""Runs every kernel of a split AscendC file with `tilekit run`.

    run_kernels.py TILEKIT FILE.mlir WORKDIR

FILE holds modules separated by `// -----` (what `tilekit-opt
-split-input-file` prints). Each kernel's arguments get values by type:
index 2 (loop trip counts), i1 1 and 0 (both branches, in two runs), GM
tensors random data. The executor checks races, deadlocks and flags left
set; exits 1 at the first kernel that fails, with its diagnostics.
"""

import os
import re
import subprocess
import sys


def main():
    tilekit, path, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    runs = 0
    for index, part in enumerate(open(path).read().split("// -----")):
        signature = re.search(r"func\.func @(\w+)\(([^)]*)\)", part)
        if not signature:
            continue
        kernel = os.path.join(work, "kernel%d.mlir" % index)
        with open(kernel, "w") as f:
            f.write(part)
        for flag in ("1", "0"):
            command = [tilekit, "run", kernel]
            for argument in signature.group(2).split(","):
                name, kind = (s.strip() for s in argument.split(":", 1))
                name = name.lstrip("%")
                if kind == "index":
                    value = "2"
                elif kind == "i1":
                    value = flag
                else:
                    shape = re.match(r"!ascendc\.global_tensor<(.*)x(\w+)>", kind)
                    value = "rand:%s:%s" % (shape.group(1), shape.group(2))
                command += ["--input", "%s=%s" % (name, value)]
            result = subprocess.run(command, capture_output=True, text=True)
            if result.returncode != 0:
                sys.stderr.write(result.stderr)
                sys.exit("FAILED: " + " ".join(command))
            runs += 1
    print("%d runs, no race, deadlock or flag left set" % runs)


if __name__ == "__main__":
    main()
