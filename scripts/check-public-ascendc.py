#!/usr/bin/python3
"""Syntax-checks emitted Ascend C against the public Ascend C declarations.

tilekit's own tests build the emitted C++ against runtime/ascendc-cpu, a
CPU stand-in written to the public declarations. This check reads the
declarations themselves, from a checkout of the public asc-devkit
(https://gitcode.com/cann/asc-devkit, mirrored on GitHub), and compiles
each file with clang++-22 -fsyntax-only as the device compiler would see
it for one architecture (__NPU_ARCH__ 2201: Atlas A2/A3, C220; 3510: the
950, C310).

The headers need what only the device compiler provides: address-space
and function qualifiers, builtin types and enums (pipe_t, event_t, ...),
and several hundred intrinsics. The CPU-debug path needs a library that is
not public (stub_def.h / stub_fun.h). So the check first builds a stand-in
for the compiler's builtins from the headers alone: it compiles
`#include "kernel_operator.h"` and, from each error, declares what is
missing, until the headers compile cleanly:
- qualifiers as nothing;
- a type as a distinct enum with the members the headers name through it
  (the headers specialize templates on these types, so two of them must
  not be one type); pipe_t and event_t unscoped, as the intrinsics take
  them; SIMT's float2, half4, ... as the compiler's vector types;
- a scope the headers call through (`__cce_scalar::f(...)`) as a
  namespace of functions;
- an object the headers read fields of (blockIdx.x) as a struct;
- an intrinsic as a variadic function template, taking types or enum
  values as template arguments and returning a value that converts to
  numbers, enums and the register types.
A name the preprocessed headers define themselves, for this architecture,
is never stood in for: a missing one follows from an earlier error, and so
is a name in a namespace the headers open.

Then every file is compiled with that stand-in: an API the file names that
the headers do not declare, arguments that no overload takes, a template
argument the API does not have, an enum member that does not exist, the
wrong macro form, each fails here. What the check cannot see: anything
decided by an intrinsic's real signature, and run-time rules (ids, sizes),
which the CPU stand-in checks.

usage: check-public-ascendc.py --devkit DIR [--arch c220|c310]
                               [--tilekit BIN] [--keep DIR] [--examples]
                               [FILE.cpp ...]
With --examples or no files, compiles every example with tilekit compile --emit=cpp
--arch=ARCH and checks each. Exits 1 if any file has an error.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

# Each target as the device compiler names it.
NPU_ARCH = {"c220": "2201", "c310": "3510"}

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
// What an intrinsic returns, where a stand-in cannot know its type.
struct __tilekit_any {
  template <class T, class = std::enable_if_t<std::is_enum_v<T> || std::is_class_v<T>>>
  operator T() const { return T(); }
  operator int64_t() const { return 0; }
};
"""

BUILTIN_TYPES = {"T", "U", "bfloat16_t", "half", "size_t"} | {
    f"{s}int{n}_t" for s in ("", "u") for n in (8, 16, 32, 64)}

ERROR = re.compile(
    r"^(.*?):(\d+):(\d+): error: (unknown type name|use of undeclared "
    r"identifier) '(\w+)'", re.M)
NOT_A_CLASS = re.compile(
    r"error: '(\w+)' (?:\(aka '\w+'\) )?is not a class, namespace, or "
    r"enumeration|unknown type name '(\w+)'; did you mean")
GLOBAL_MEMBER = re.compile(r"error: no member named '(\w+)' in the global "
                           r"namespace")
NAMESPACE_MEMBER = re.compile(
    r"error: no (member|type|template) named '(\w+)' in namespace '([\w:]+)'")
NOT_A_STRUCT = re.compile(
    r"^(.*?):(\d+):(\d+): error: member reference base type '(?:const )?int' "
    r"is not a structure or union", re.M)
# A reserved name the C library declares for other types (glibc's __exp).
NO_MATCH = re.compile(
    r"^(.*?):\d+:\d+: error: no matching function for call to '(__\w+)'",
    re.M)
NOT_CALLABLE = re.compile(
    r"^(.*?):(\d+):(\d+): error: called object type 'int' is not a function",
    re.M)


class Builtins:
    """The compiler's builtins, as far as the headers need them."""

    def __init__(self, devkit, workdir, arch):
        self.devkit = devkit
        self.npu_arch = NPU_ARCH[arch]
        self.workdir = workdir
        self.path = os.path.join(workdir, "builtins.h")
        self.decls = {}
        self.enums = {}
        self.namespaces = {}
        self.types_in = {}
        self.defined = None
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
                   "-ferror-limit=0", "-D__NPU_ARCH__=" + self.npu_arch,
                   "-D__device__=", "-Wno-unknown-attributes",
                   "-Wno-ignored-attributes", "-include", self.path]
        command += self.include_flags() + [source]
        return subprocess.run(command, capture_output=True, text=True).stderr

    def headers(self):
        """The headers' text as this architecture's compilation sees them:
        what one target defines under #if is a builtin on another."""
        if self.header_text is None:
            probe = os.path.join(self.workdir, "preprocess.cpp")
            with open(probe, "w") as f:
                f.write('#include "kernel_operator.h"\n')
            prelude = os.path.join(self.workdir, "prelude.h")
            with open(prelude, "w") as f:
                f.write(PRELUDE)
            command = ["clang++-22", "-std=c++17", "-E", "-P",
                       "-D__NPU_ARCH__=" + self.npu_arch, "-D__device__=",
                       "-include", prelude] + self.include_flags() + [probe]
            self.header_text = subprocess.run(
                command, capture_output=True, text=True).stdout
        return self.header_text

    def named_through(self, name, pattern=r"::(\w+)"):
        """What the headers name through `name` (members, fields, calls)."""
        return set(re.findall(r"\b" + name + pattern, self.headers()))

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
            for space, names in sorted(self.namespaces.items()):
                f.write(f"namespace {space} {{\n")
                for name in sorted(names):
                    f.write((self.types_in.get((space, name)) or
                             self.function(name)) + "\n")
                f.write("}\n")
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
        # Intrinsics return numbers or C310's register types, and take
        # types or enum values as template arguments.
        return (f"template <class... A> __tilekit_any {name}(A &&...); "
                f"template <auto V, auto... W, class... A> __tilekit_any "
                f"{name}(A &&...);")

    def in_headers(self, path):
        return os.path.abspath(path).startswith(self.devkit + os.sep)

    def learn(self, errors):
        """Declares what the errors in the headers say is missing (never
        what a checked file lacks); how many it declared."""
        learned = 0
        for m in ERROR.finditer(errors):
            path, line, column, kind, name = m.groups()
            if (name in self.decls or name in BUILTIN_TYPES or
                    not self.in_headers(path) or
                    self.defined_in_headers(name)):
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
                # Each its own type: the headers specialize templates on them.
                self.decls[name] = self.distinct_type(name)
            elif after.startswith("(") or after.startswith("<"):
                self.decls[name] = self.function(name)
            else:
                self.next_value += 1
                self.decls[name] = f"constexpr int {name} = {self.next_value};"
            learned += 1
        for m in NOT_A_CLASS.finditer(errors):
            name = m.group(1) or m.group(2)
            learned += self.learn_scope(name)
        for m in GLOBAL_MEMBER.finditer(errors):
            learned += self.learn_scope(m.group(1))
        for m in NAMESPACE_MEMBER.finditer(errors):
            kind, name, space = m.groups()
            # A namespace the headers open is theirs: a name missing there
            # follows from an earlier error, not from a builtin.
            if self.opened_by_headers(space):
                continue
            if re.search(r"\b" + space + "::" + name + r"::", self.headers()):
                if space + "::" + name not in self.namespaces:
                    self.namespaces[space + "::" + name] = set()
                    learned += 1
                continue
            if name not in self.namespaces.setdefault(space, set()):
                self.namespaces[space].add(name)
                if kind == "type":
                    self.types_in[(space, name)] = (
                        f"enum class {name} : int {{}};")
                learned += 1
        for m in NOT_A_STRUCT.finditer(errors):
            if not self.in_headers(m.group(1)):
                continue
            text = self.source_line(m.group(1), int(m.group(2)))
            name = re.findall(r"(\w+)\s*\.?\s*$", text[:int(m.group(3))])
            if name and self.decls.get(name[0], "").startswith("constexpr"):
                fields = sorted(self.named_through(name[0], r"\s*\.\s*(\w+)"))
                self.decls[name[0]] = (
                    f"struct {{ __tilekit_any {', '.join(fields)}; }} "
                    f"inline {name[0]};")
                learned += 1
        for m in NO_MATCH.finditer(errors):
            name = m.group(2)
            if (self.in_headers(m.group(1)) and name not in self.decls and
                    not self.defined_in_headers(name)):
                self.decls[name] = self.function(name)
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

    def opened_by_headers(self, space):
        opened = set()
        for spaces in re.findall(r"\bnamespace\s+([\w:]+)\s*\{",
                                 self.headers()):
            opened |= set(spaces.split("::"))
        return bool(opened & set(space.split("::")))

    def defined_in_headers(self, name):
        """Whether a header defines `name` itself (then it is no builtin)."""
        if self.defined is None:
            self.defined = set(re.findall(r"\busing\s+(\w+)\s*=",
                                          self.headers()))
            self.defined |= set(re.findall(r"\btypedef\s[^;{}]*?(\w+)\s*;",
                                           self.headers()))
        return name in self.defined

    def distinct_type(self, name):
        """A builtin type of its own: an enum of the members the headers
        name through it (pipes and events unscoped, as the intrinsics take
        them)."""
        # SIMT's vector types (float2, half4, ...): the compiler's vectors.
        vector = re.fullmatch(r"(u?(?:char|short|int|long)|float|half|"
                              r"bfloat16|double)([1-4])", name)
        if vector:
            scalar = {"half": "_Float16", "bfloat16": "__bf16",
                      "long": "int64_t", "ulong": "uint64_t",
                      "uchar": "uint8_t", "ushort": "uint16_t",
                      "uint": "uint32_t", "char": "int8_t"}.get(
                          vector.group(1), vector.group(1))
            return (f"using {name} = {scalar} "
                    f"__attribute__((ext_vector_type({vector.group(2)})));")
        if name in ("pipe_t", "event_t"):
            self.enums[name] = set()
            return ""
        members = self.named_through(name)
        return (f"enum class {name} : int {{ {', '.join(sorted(members))} }};")

    def learn_scope(self, name):
        """A name used as `name::member`: a namespace of functions when the
        headers call its members, else an enum of them."""
        if (name in self.enums or name in self.namespaces
                or (name in self.decls and "enum" in self.decls[name])):
            return 0
        if re.search(r"\b" + name + r"::\w+::", self.headers()):
            self.namespaces[name] = set()
            self.decls.pop(name, None)
            return 1
        called = self.named_through(name, r"::(\w+)\s*\(")
        if called:
            self.namespaces[name] = called
            self.decls.pop(name, None)
        else:
            self.decls[name] = self.distinct_type(name)
        return 1

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
    parser.add_argument("--arch", choices=sorted(NPU_ARCH), default="c220",
                        help="the target the files were compiled for")
    parser.add_argument("--keep", help="keep the work files in DIR")
    parser.add_argument("--examples", action="store_true",
                        help="check every example as well as the files")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    workdir = args.keep or tempfile.mkdtemp(prefix="tilekit-public-ascendc-")
    os.makedirs(workdir, exist_ok=True)
    builtins = Builtins(os.path.abspath(args.devkit), workdir, args.arch)
    builtins.build()
    files = []
    if args.examples or not args.files:
        examples = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "examples")
        for kernel in sorted(glob.glob(os.path.join(examples, "*.mlir"))):
            out = os.path.join(workdir, os.path.basename(kernel)[:-5] + ".cpp")
            subprocess.run([args.tilekit, "compile", kernel, "--arch=" + args.arch,
                            "--emit=cpp", "-o", out], check=True,
                           capture_output=True)
            files.append(out)
    files += args.files
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
