"""Runs a function of a script emitted by `tilekit emit --target=torch`.

    run_script.py SCRIPT FUNCTION ARG... [--save N=FILE.npy] [--blocks N]
                  [--set NAME=NUMBER]

An ARG is FILE.npy, zeros:SHAPE:TYPE (SHAPE like 4x8), or a number. `--save
N=FILE` writes argument N after the call (GM tensors are written in place),
or the result when N is `result`. `--set` overrides a number of the
script's runtime, such as _PIPE_WAIT_TIMEOUT_SEC. Prints the seconds the
call took.
"""
import sys
import time

import numpy as np
import torch

TYPES = {"f32": torch.float32, "f16": torch.float16, "i32": torch.int32,
         "i64": torch.int64, "i8": torch.int8, "i16": torch.int16}


def load(spec):
    if spec.endswith(".npy"):
        return torch.from_numpy(np.load(spec).copy())
    if spec.startswith("zeros:"):
        _, shape, dtype = spec.split(":")
        return torch.zeros([int(d) for d in shape.split("x")],
                           dtype=TYPES[dtype])
    return float(spec) if "." in spec or "e" in spec else int(spec)


def main(argv):
    script, function = argv[0], argv[1]
    args, saves, blocks, settings = [], [], 1, []
    rest = argv[2:]
    while rest:
        word = rest.pop(0)
        if word == "--save":
            saves.append(rest.pop(0).split("=", 1))
        elif word == "--set":
            settings.append(rest.pop(0).split("=", 1))
        elif word == "--blocks":
            blocks = int(rest.pop(0))
        else:
            args.append(load(word))
    namespace = {"__name__": "tilekit_script"}
    exec(compile(open(script).read(), script, "exec"), namespace)
    for setting, value in settings:
        namespace[setting] = float(value)
    start = time.perf_counter()
    result = None
    for block in range(blocks):
        namespace["_BLOCK"].update(idx=block, num=blocks)
        result = namespace[function](*args)
    elapsed = time.perf_counter() - start
    for index, path in saves:
        value = result if index == "result" else args[int(index)]
        np.save(path, value.numpy())
    print("seconds %.6f" % elapsed)


if __name__ == "__main__":
    main(sys.argv[1:])
