"""Every `tilekit run` line of the test suite, compiled through --verify-each.

For each RUN line of the lit tests that runs a PTO kernel with `tilekit run`,
compiles the same kernel, entry, inputs and blocks with `tilekit compile
--verify-each` for C220 and C310, with and without --lower-to-l0, and
classifies the outcome:

  ok        every pass kept the kernel's outputs bit for bit
  executor  the kernel itself does not run (a test of a PTO error): nothing
            to compile against
  refused   compile stopped with a located error; it must be listed, with
            its reason, in the reviewed refusals file
  DIVERGES  a pass changed an output, or left a race or deadlock
  CRASH     compile died on a signal or failed internally (exit status 4)

Writes one line per command and a summary to WORK_DIR/sweep.txt (the bad
lines and the summary to stderr too); exits 1 when anything diverged,
crashed, was refused without being listed, or is listed but no longer
refused (the list stays honest).

usage: compile_sweep.py TILEKIT TEST_DIR EXAMPLES_DIR REFUSALS WORK_DIR [-j N]
"""

import concurrent.futures
import os
import re
import shlex
import subprocess
import sys

PYTHON = "/usr/bin/python3"
ARCHS = ("c220", "c310")
# Options of `tilekit run` that say what the kernel runs on; the rest (what
# to print or expect, tolerances, the compiled path) do not apply.
# (--plan-memory only gives tiles addresses; compile plans its own.)
CARRIED = {"--entry", "--input", "--blocks", "--config", "--timeout",
           "--max-steps"}
# Options of `tilekit run` alone that bound how long its kernel may wait.
RUN_ONLY = {"--pop-timeout", "--group-timeout"}
# Each run of a compile stops after this long unless the test gives a
# --timeout of its own (a kernel written to run forever).
DEFAULT_TIMEOUT = "--timeout=60"


def logical_lines(path):
    """The file's (kind, text) RUN/DEFINE/REDEFINE lines, continuations
    (a trailing backslash) joined."""
    lines, pending = [], None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            m = re.search(r"\b(RUN|DEFINE|REDEFINE):(.*)$", raw)
            if not m:
                continue
            kind, text = m.group(1), m.group(2).strip()
            if pending:
                kind, text = pending[0], pending[1] + " " + text
            if text.endswith("\\"):
                pending = (kind, text[:-1].strip())
                continue
            pending = None
            lines.append((kind, text))
    return lines


def substitute(text, path, tmp, examples, defines):
    for name, value in sorted(defines.items(), key=lambda kv: -len(kv[0])):
        text = text.replace("%{" + name + "}", value)
    # Longer names first: %tilekit_src before %t.
    for name, value in (("%python", PYTHON), ("%examples", examples),
                        ("%tilekit_src", ROOT), ("%clangxx", "clang++-22"),
                        ("%s", path), ("%S", os.path.dirname(path)),
                        ("%t", tmp), ("%%", "%")):
        text = text.replace(name, value)
    return text


def steps_of(line):
    """The commands of a shell line, each a word list up to its first pipe,
    quotes respected; `&&`, `||` and `;` separate commands."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    steps, words, piped = [], [], False
    for token in lexer:
        if token in ("&&", "||", ";"):
            steps.append(words)
            words, piped = [], False
        elif token == "|":
            piped = True
        elif not piped:
            words.append(token)
    steps.append(words)
    return [w for w in steps if w]


def prepare(words):
    """Runs a line that makes a test's inputs (rm, mkdir, python -c), its
    `> FILE` redirection kept."""
    out = None
    if ">" in words:
        at = words.index(">")
        out, words = words[at + 1], words[:at]
    with open(out, "w") if out else open(os.devnull, "w") as sink:
        subprocess.run(words, stdout=sink, stderr=subprocess.DEVNULL)


def run_commands(path, tmp_root, examples):
    """The `tilekit run` invocations of one test file, after running the
    lines that make their inputs (mkdir, rm, python -c)."""
    tmp = os.path.join(tmp_root, os.path.relpath(path, TEST_DIR) + ".tmp")
    os.makedirs(os.path.dirname(tmp), exist_ok=True)
    defines, found = {}, []
    for kind, text in logical_lines(path):
        if kind in ("DEFINE", "REDEFINE"):
            name, _, value = text.partition("=")
            defines[name.strip().strip("%{}")] = value.strip()
            continue
        try:
            steps = steps_of(substitute(text, path, tmp, examples, defines))
        except ValueError:
            continue
        for words in steps:
            # Lines that make inputs: shell tools, and Python that does not
            # run tilekit itself.
            if words[0] in ("rm", "mkdir", "cp", "printf", "truncate",
                            "head", "dd") or (
                    words[0] == PYTHON and "tilekit" not in words):
                prepare(words)
                continue
            while words and (words[0] in ("not", "env", "--crash")
                             or "=" in words[0]):
                words = words[1:]
            if len(words) >= 3 and words[0] == "tilekit" and words[1] == "run":
                found.append((path, words[2:]))
    return found


def compile_args(argv):
    """The kernel, the carried options and the run's own waiting bounds of
    a `tilekit run` argv."""
    kernel, carried, waits, i = None, [], [], 0
    while i < len(argv):
        word = argv[i]
        name = word.split("=", 1)[0]
        into = carried if name in CARRIED else waits if name in RUN_ONLY else None
        if not word.startswith("-"):
            kernel = kernel or word
        elif into is not None:
            if "=" in word:
                into.append(word)
            elif i + 1 < len(argv):
                into += [word, argv[i + 1]]
                i += 1
        i += 1
    if not any(c.startswith("--timeout") for c in carried):
        carried.append(DEFAULT_TIMEOUT)
    return kernel, carried, waits


def classify(tilekit, kernel, carried, arch, l0, work):
    # Kernels that read undefined data on purpose (tests of that check)
    # are verified too, with undefined data read as zeros in every run:
    # whether a pass breaks them is the sweep's question, and
    # compile-undefined.test covers compile's refusal of them.
    argv = [tilekit, "compile", kernel, "--arch=" + arch, "--verify-each",
            "--allow-undefined", "--quiet", "-o", os.path.join(work, "out.mlir"),
            "--save-ir", work] + carried + (["--lower-to-l0"] if l0 else [])
    os.makedirs(work, exist_ok=True)
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "CRASH", "timed out after 300 s"
    errors = [l for l in done.stderr.splitlines() if "error:" in l]
    first = errors[0] if errors else done.stderr.strip().splitlines()[-1:] or [""]
    first = first if isinstance(first, str) else first[0]
    # A signal, or tilekit's own exit status for an internal failure.
    if done.returncode < 0:
        return "CRASH", "signal %d" % -done.returncode
    if done.returncode == 4:
        return "CRASH", first
    if done.returncode == 0:
        return "ok", ""
    if "does not run before the pipeline" in done.stderr:
        return "executor", first
    if "--verify-each:" in done.stderr and "broke the kernel" in done.stderr:
        return "DIVERGES", first
    return "refused", first


def executor_refuses(tilekit, kernel, carried, waits):
    """The executor's first error when it refuses the kernel or its inputs
    (a test of a PTO error): there is nothing to compile against."""
    # Run's capacity gate is compile's: whether compile refuses is the
    # sweep's question, so the executor runs what would not fit.
    ran = subprocess.run([tilekit, "run", kernel, "--no-capacity-check"] +
                         carried + waits,
                         capture_output=True, text=True, timeout=300)
    if ran.returncode == 0:
        return None
    errors = [l for l in ran.stderr.splitlines() if "error" in l]
    return (errors or ran.stderr.strip().splitlines() or ["failed"])[0]


def key_of(kernel, carried, arch, l0):
    rel = os.path.relpath(kernel, ROOT)
    entry = next((c.split("=", 1)[1] if "=" in c else carried[i + 1]
                  for i, c in enumerate(carried)
                  if c.split("=", 1)[0] == "--entry"), "-")
    return "%s:%s:%s%s" % (rel, entry, arch, "+l0" if l0 else "")


def load_refusals(path):
    """key -> the words its error must contain (reviewed, one a line)."""
    refusals = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                key, _, words = line.partition(" ")
                refusals[key] = words.strip()
    return refusals


def main():
    global TEST_DIR, ROOT
    args = sys.argv[1:]
    jobs = 2
    if "-j" in args:
        jobs = int(args[args.index("-j") + 1])
        del args[args.index("-j"):args.index("-j") + 2]
    tilekit, TEST_DIR, examples, refusals_path, work = args
    TEST_DIR = os.path.abspath(TEST_DIR)
    ROOT = os.path.dirname(TEST_DIR)
    refusals = load_refusals(refusals_path)

    commands, seen = [], set()
    for top, _, files in sorted(os.walk(TEST_DIR)):
        if os.sep + "Inputs" in top:
            continue
        for name in sorted(files):
            if not name.endswith((".mlir", ".test")):
                continue
            for path, argv in run_commands(os.path.join(top, name), work,
                                           os.path.abspath(examples)):
                kernel, carried, waits = compile_args(argv)
                # Compiled kernels (written under %t) are not PTO sources.
                if (not kernel or not os.path.isfile(kernel)
                        or os.path.abspath(kernel).startswith(os.path.abspath(work))
                        and kernel.endswith(".mlir")):
                    continue
                ident = (os.path.abspath(kernel), tuple(carried), tuple(waits))
                if ident not in seen:
                    seen.add(ident)
                    commands.append(ident)

    def job(index_command):
        """The four compiles of one run line (none when the executor
        refuses it)."""
        index, (kernel, carried, waits) = index_command
        refusal = executor_refuses(tilekit, kernel, list(carried), list(waits))
        results = []
        for arch in ARCHS:
            for l0 in (False, True):
                key = key_of(kernel, list(carried), arch, l0)
                if refusal is not None:
                    results.append((key, "executor", refusal))
                    continue
                outcome, why = classify(
                    tilekit, kernel, list(carried), arch, l0,
                    os.path.join(work, "c%d%s%s" % (index, arch, "l0" if l0 else "")))
                results.append((key, outcome, why))
        return results

    counts, bad, refused_keys = {}, [], set()
    report = open(os.path.join(work, "sweep.txt"), "w", encoding="utf-8")

    def say(line, loud):
        print(line, file=report, flush=True)
        if loud:
            print(line, file=sys.stderr, flush=True)

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for key, outcome, why in (result for results in pool.map(
                job, enumerate(commands)) for result in results):
            counts[outcome] = counts.get(outcome, 0) + 1
            verdict = outcome
            if outcome == "refused":
                # Listed for this arch, or for every arch (PATH:ENTRY).
                listed = key if key in refusals else key.rsplit(":", 1)[0]
                refused_keys.add(listed)
                expected = refusals.get(listed)
                if expected is None or expected not in why:
                    verdict = "UNLISTED-REFUSAL"
                    bad.append(key)
            elif outcome in ("DIVERGES", "CRASH"):
                bad.append(key)
            say(("%s %s %s" % (verdict, key, why)).rstrip(),
                verdict not in ("ok", "executor", "refused"))
    stale = sorted(k for k in refusals if k not in refused_keys)
    for key in stale:
        say("STALE-REFUSAL %s (listed, but compiles now)" % key, True)
    say("sweep: %d run lines, %d compiles: %s" % (len(commands), sum(counts.values()), ", ".join(
        "%d %s" % (n, o) for o, n in sorted(counts.items()))), True)
    say("sweep: %d bad" % (len(bad) + len(stale)), True)
    return 1 if bad or stale else 0


if __name__ == "__main__":
    sys.exit(main())
