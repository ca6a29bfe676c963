#!/usr/bin/python3
"""Syntax-checks emitted Ascend C against the public Ascend C declarations.

tilekit's own tests build the emitted C++ against runtime/ascendc-cpu, a
CPU stand-in written to the public declarations. This check reads the
declarations themselves, from a checkout of the public asc-devkit
(https://gitcode.com/cann/asc-devkit, mirrored on GitHub), and compiles
each file with clang++-22 -fsyntax-only as the device compiler would see
it for one architecture (__NPU_ARCH__ 2201: Atlas A2/A3, C220).

The headers need what only the device compiler provides: address-space
and function qualifiers, builtin types and enums (pipe_t, event_t, ...),
and several hundred intrinsics. The CPU-debug path needs a library that is
not public (stub_def.h / stub_fun.h). So the check first builds a stand-in
for the compiler's builtins from the headers alone: it compiles
`#include "kernel_operator.h"` and, from each error, declares what is
missing (qualifiers as nothing, a type as int, an enum with the members the
headers name through it, an intrinsic as a variadic function), until the
headers compile cleanly. Then every file is compiled with that stand-in:
an API the file names that the headers do not declare, arguments that no
overload takes, a template argument the API does not have, an enum member
that does not exist, the wrong macro form, each fails here. What the check
cannot see: anything decided by an intrinsic's real signature, and run-time
rules (ids, sizes), which the CPU stand-in checks.

C310 (the 950's register-based API) needs the compiler's vector types; the
stand-in built this way does not cover them, so only C220 is checked.

usage: check-public-ascendc.py --devkit DIR [--tilekit BIN] [--keep DIR]
                               [FILE.cpp ...]
With no files, compiles every example with tilekit compile --emit=cpp
--arch=c220 and checks each. Exits 1 if any file has an error.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

NPU_ARCH = "2201"

# What the device compiler defines before any header: qualifiers as
# nothing, except that overloads on the local buffers' pointers must stay
# distinct (the headers overload asc_dump on them).
PRELUDE = """#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <type_traits>
#define __aicore__
#define __global__
#define __gm__
#define __ca__
#define __cb__
#define __ssbuf__
#define __ubuf__ __attribute__((address_space(2)))
#define __cbuf__ __attribute__((address_space(3)))
#define __cc__ __attribute__((address_space(6)))
#define __fbuf__ __attribute__((address_space(7)))
#define __biasbuf__ __attribute__((address_space(9)))
using half = _Float16;
using bfloat16_t = __bf16;
namespace bisheng { namespace cce {
inline void metrics_prof_start() {}
inline void metrics_prof_stop() {}
} }
"""

BUILTIN_TYPES = {"T", "U", "bfloat16_t", "half", "size_t"} | {
    f"{s}int{n}_t" for s in ("", "u") for n in (8, 16, 32, 64)}

ERROR = re.compile(
    r"^(.*?):(\d+):(\d+): error: (unknown type name|use of undeclared "
    r"identifier) '(\w+)'", re.M)
NOT_A_CLASS = re.compile(
    r"error: '(\w+)' (?:\(aka '\w+'\) )?is not a class, namespace, or "
    r"enumeration|unknown type name '(\w+)'; did you mean")
NOT_CALLABLE = re.compile(
    r"^(.*?):(\d+):(\d+): error: called object type 'int' is not a function",
    re.M)


class Builtins:
    """The compiler's builtins, as far as the headers need them."""

    def __init__(self, devkit, workdir):
        self.devkit = devkit
        self.workdir = workdir
        self.path = os.path.join(workdir, "builtins.h")
        self.decls = {}
        self.enums = {}
        self.next_value = 0
        self.header_text = None

    def include_flags(self):
        flags = ["-isystem", os.path.join(self.workdir, "include")]
        for sub in ("", "include", "include/basic_api", "include/utils",
                    "include/adv_api", "impl", "impl/basic_api",
                    "impl/utils"):
            flags += ["-isystem", os.path.join(self.devkit, sub)]
        return flags

    def compile(self, source):
        command = ["clang++-22", "-std=c++17", "-fsyntax-only",
                   "-ferror-limit=0", "-D__NPU_ARCH__=" + NPU_ARCH,
                   "-D__device__=", "-Wno-unknown-attributes",
                   "-Wno-ignored-attributes", "-include", self.path]
        command += self.include_flags() + [source]
        return subprocess.run(command, capture_output=True, text=True).stderr

    def members(self, enum):
        """The members the headers name as enum::member."""
        if self.header_text is None:
            texts = []
            for path in glob.glob(os.path.join(self.devkit, "**", "*.h"),
                                  recursive=True):
                with open(path, errors="ignore") as f:
                    texts.append(f.read())
            self.header_text = "\n".join(texts)
        found = set(re.findall(r"\b" + enum + r"::(\w+)", self.header_text))
        return found or {enum + "_NONE"}

    def write(self):
        # Unqualified uses of pipes and events are the enums' members.
        for enum, prefix in (("pipe_t", "PIPE_"), ("event_t", "EVENT_ID")):
            if enum in self.enums:
                self.enums[enum] |= {k for k in self.decls
                                     if k.startswith(prefix)}
        members = set().union(*self.enums.values()) if self.enums else set()
        with open(self.path, "w") as f:
            f.write(PRELUDE)
            for enum, names in sorted(self.enums.items()):
                f.write(f"enum {enum} : int {{ {', '.join(sorted(names))} }};\n")
            for name, decl in sorted(self.decls.items()):
                if name not in members and name not in self.enums:
                    f.write(decl + "\n")

    @staticmethod
    def source_line(path, line):
        try:
            with open(path, errors="ignore") as f:
                return f.read().splitlines()[line - 1]
        except (OSError, IndexError):
            return ""

    def function(self, name):
        return f"template <class... A> int64_t {name}(A &&...);"

    def in_headers(self, path):
        return os.path.abspath(path).startswith(self.devkit + os.sep)

    def learn(self, errors):
        """Declares what the errors in the headers say is missing (never
        what a checked file lacks); how many it declared."""
        learned = 0
        for m in ERROR.finditer(errors):
            path, line, column, kind, name = m.groups()
            if (name in self.decls or name in BUILTIN_TYPES or
                    not self.in_headers(path)):
                continue
            text = self.source_line(path, int(line))
            column = int(column)
            after = text[column - 1 + len(name):].lstrip()
            before = text[:column - 1].rstrip()
            if name.startswith("__") and name.endswith("__"):
                self.decls[name] = (f"#define {name}(...)"
                                    if after.startswith("(") else
                                    f"#define {name}")
            elif (kind == "unknown type name" or name.endswith("_t") or
                  (re.match(r"\)\s*[\w(]", after) and before.endswith("("))):
                self.decls[name] = f"using {name} = int;"
            elif after.startswith("(") or after.startswith("<"):
                self.decls[name] = self.function(name)
            else:
                self.next_value += 1
                self.decls[name] = f"constexpr int {name} = {self.next_value};"
            learned += 1
        for m in NOT_A_CLASS.finditer(errors):
            enum = m.group(1) or m.group(2)
            if enum not in self.enums and enum != "bisheng":
                self.enums[enum] = self.members(enum)
                learned += 1
        for m in NOT_CALLABLE.finditer(errors):
            if not self.in_headers(m.group(1)):
                continue
            text = self.source_line(m.group(1), int(m.group(2)))
            name = re.findall(r"(\w+)\s*$", text[:int(m.group(3)) - 1])
            if name and self.decls.get(name[0]) != self.function(name[0]):
                self.decls[name[0]] = self.function(name[0])
                learned += 1
        return learned

    def build(self):
        os.makedirs(os.path.join(self.workdir, "include", "kernel_tiling"),
                    exist_ok=True)
        # The tiling structs, as the devkit's build generates them.
        subprocess.run(
            [sys.executable,
             os.path.join(self.devkit, "impl", "adv_api", "cmake", "scripts",
                          "gen_kernel_tiling_data_def.py"),
             os.path.join(self.devkit, "include", "adv_api"),
             os.path.join(self.workdir, "include", "kernel_tiling",
                          "kernel_tiling.h")],
            check=True, capture_output=True)
        probe = os.path.join(self.workdir, "probe.cpp")
        with open(probe, "w") as f:
            f.write('#include "kernel_operator.h"\n')
        errors = self.check(probe)
        if errors:
            sys.exit("the public headers do not compile with the builtins "
                     "learned from them:\n" + "\n".join(errors[:20]))

    def check(self, source):
        """The errors compiling `source`, after learning the intrinsics the
        templates it instantiates need."""
        for _ in range(20):
            self.write()
            output = self.compile(source)
            if not re.search(r": error:", output) or not self.learn(output):
                break
        return [line for line in output.splitlines() if ": error:" in line]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--devkit", required=True,
                        help="a checkout of the public asc-devkit")
    parser.add_argument("--tilekit", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build", "bin",
        "tilekit"))
    parser.add_argument("--keep", help="keep the work files in DIR")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    workdir = args.keep or tempfile.mkdtemp(prefix="tilekit-public-ascendc-")
    os.makedirs(workdir, exist_ok=True)
    builtins = Builtins(os.path.abspath(args.devkit), workdir)
    builtins.build()
    files = list(args.files)
    if not files:
        examples = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "examples")
        for kernel in sorted(glob.glob(os.path.join(examples, "*.mlir"))):
            out = os.path.join(workdir, os.path.basename(kernel)[:-5] + ".cpp")
            subprocess.run([args.tilekit, "compile", kernel, "--arch=c220",
                            "--emit=cpp", "-o", out], check=True,
                           capture_output=True)
            files.append(out)
    failed = 0
    for path in files:
        errors = builtins.check(path)
        print(f"{os.path.basename(path)}: "
              f"{'ok' if not errors else f'{len(errors)} errors'}")
        for line in errors:
            print("  " + line)
        failed += bool(errors)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
