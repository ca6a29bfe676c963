# lit configuration for tilekit's IR and driver tests.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "tilekit"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilekit_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

config.substitutions.append(("%examples", os.path.join(config.tilekit_src_root, "examples")))
config.substitutions.append(("%docs", os.path.join(config.tilekit_src_root, "docs")))
config.substitutions.append(("%tilekit_obj_root", config.tilekit_obj_root))
# NumPy goldens use Debian's python3-numpy, which belongs to /usr/bin/python3.
config.substitutions.append(("%python", "/usr/bin/python3"))
# The emitted Ascend C C++ builds with Debian's clang-22 against our
# declarations of the API (runtime/ascendc-cpu).
config.substitutions.append(("%clangxx", "/usr/bin/clang++-22"))
config.substitutions.append(("%tilekit_src", config.tilekit_src_root))
config.substitutions.append(("%runtime_flags", "-I %s -I %s" % (os.path.join(config.tilekit_src_root, "runtime", "ascendc-cpu"), os.path.join(config.tilekit_src_root, "include"))))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.tilekit_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["tilekit-opt", "tilekit-translate", "tilekit-vf-image", "tilekit-vf-worker", "tilekit-lsp-server", "tilekit"], [config.tilekit_tools_dir])

# The browser check of sim --report runs where Debian's Chromium is.
import shutil
if shutil.which("chromium"):
    config.available_features.add("chromium")

# A sanitizer build (-DTILEKIT_SANITIZE=...) runs the suite without the
# tests whose cost is repetition (UNSUPPORTED: sanitizer, or asan): sweeps
# over every kernel, random kernels, repeated and long runs. They take the
# paths the focused tests cover, at several times the cost there.
if config.tilekit_sanitize:
    config.available_features.add("sanitizer")
    if "address" in config.tilekit_sanitize:
        config.available_features.add("asan")

# A test that hangs fails after 20 minutes with its name, rather than
# stopping the whole run (the longest takes about 5 minutes here; lit needs
# psutil to stop one, python3-psutil).
try:
    import psutil  # noqa: F401

    lit_config.maxIndividualTestTime = 1200
except ImportError:
    pass

# The Python module is built except in sanitizer and fuzz builds.
if os.path.isdir(os.path.join(config.tilekit_obj_root, "python", "tilekit")):
    config.available_features.add("python-module")

# The check against the public Ascend C declarations runs where a checkout
# of the public asc-devkit is (scripts/check-public-ascendc.py); CI has none.
asc_devkit = os.environ.get("TILEKIT_ASC_DEVKIT")
if asc_devkit and os.path.isfile(os.path.join(asc_devkit, "include", "kernel_operator.h")):
    config.available_features.add("asc-devkit")
    config.substitutions.append(("%asc_devkit", asc_devkit))
