"""A client of tilekit-vf-worker, the persistent vector-function worker.

The worker runs the `.text` of a vf-bundle image (`tilekit compile
--emit=vf-bundle`); the protocol is in docs/vector-functions.md. One Worker
object is one worker process, reused for every kernel it is given.
"""

import json
import os
import struct
import subprocess

import numpy as np


class KernelFault(Exception):
    """kernel_entry faulted; the worker survived and reports the signal."""

    def __init__(self, signal, message):
        super().__init__(message)
        self.signal = signal


class Bundle:
    """A vf-bundle directory: its manifest and the code the worker runs."""

    def __init__(self, directory):
        self.directory = directory
        with open(os.path.join(directory, "manifest.json")) as f:
            self.manifest = json.load(f)
        with open(os.path.join(directory, "build-result.json")) as f:
            self.result = json.load(f)
        with open(os.path.join(directory, "image.text"), "rb") as f:
            self.code = f.read()


class Worker:
    def __init__(self, binary="tilekit-vf-worker"):
        self.process = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.runs = 0

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)

    def alive(self):
        return self.process.poll() is None

    def _read(self, size):
        data = self.process.stdout.read(size)
        if len(data) != size:
            raise RuntimeError("the worker exited (status %s)" %
                               self.process.poll())
        return data

    def run_code(self, code, ub_bytes, tensors, ints=(), floats=()):
        """Runs raw code on float32 tensors; returns them after the run."""
        tensors = [np.ascontiguousarray(t, dtype=np.float32) for t in tensors]
        out = self.process.stdin
        out.write(b"TKVF" + struct.pack("<I", 1))
        out.write(struct.pack("<Q", len(code)) + code)
        out.write(struct.pack("<QI", ub_bytes, len(tensors)))
        for t in tensors:
            out.write(struct.pack("<I", t.ndim))
            out.write(struct.pack("<%dq" % t.ndim, *t.shape))
            out.write(t.tobytes())
        out.write(struct.pack("<I", len(ints)))
        out.write(struct.pack("<%dq" % len(ints), *ints))
        out.write(struct.pack("<I", len(floats)))
        out.write(struct.pack("<%df" % len(floats), *floats))
        out.flush()
        if self._read(4) != b"TKVR":
            raise RuntimeError("the worker's response is corrupt")
        status, signal, self.runs, nanos, size = struct.unpack(
            "<IIQQQ", self._read(32))
        message = self._read(size).decode()
        if status == 1:
            raise KernelFault(signal, message)
        if status != 0:
            raise RuntimeError("the worker rejected the request: " + message)
        (count,) = struct.unpack("<I", self._read(4))
        results = []
        for t in tensors:
            (size,) = struct.unpack("<Q", self._read(8))
            results.append(np.frombuffer(self._read(size),
                                         dtype=np.float32).reshape(t.shape))
        return results, nanos

    def run(self, bundle, arguments):
        """Runs a bundle with its arguments by name (the manifest's)."""
        tensors, ints, floats = [], [], []
        for arg in bundle.manifest["arguments"]:
            value = arguments[arg["name"]]
            {"tensor": tensors, "int": ints, "float": floats}[arg["kind"]].append(value)
        results, nanos = self.run_code(bundle.code, bundle.manifest["ub_bytes"],
                                       tensors, ints, floats)
        names = [a["name"] for a in bundle.manifest["arguments"]
                 if a["kind"] == "tensor"]
        return dict(zip(names, results)), nanos


def run_executor(tilekit, kernel, values, outputs, flags=(), env=None):
    """The reference: `tilekit run` of `kernel` on the same arguments.

    Returns the tensors named in `outputs` after the run.
    """
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        argv = [tilekit, "run", kernel] + list(flags)
        for name, value in values.items():
            if isinstance(value, np.ndarray):
                np.save(os.path.join(tmp, name + ".npy"), value)
                argv += ["--input", "%s=%s" % (name, os.path.join(tmp, name + ".npy"))]
            else:
                argv += ["--input", "%s=%r" % (name, value)]
        for name in outputs:
            argv += ["--output", "%s=%s" % (name, os.path.join(tmp, name + ".out.npy"))]
        subprocess.run(argv, check=True, env=env)
        return {name: np.load(os.path.join(tmp, name + ".out.npy")) for name in outputs}


def same_bits(a, b):
    """Equal to the bit (NaNs and signed zeros included)."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    return a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32))
