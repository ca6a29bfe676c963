"""The op classes of the dialects tilekit.lang builds with, generated from
their ODS (.td) by `mlir-tblgen --gen-python-op-bindings` at build time
(`pto`, `arith`, `scf`, `func`), and the small `ir` layer they call
(ir.py, over `_native.ir`). Nothing here states an op's signature: the
generated code does, from the same definitions the C++ uses."""
