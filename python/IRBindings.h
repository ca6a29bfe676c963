//===- IRBindings.h - Building IR from Python (`_native.ir`) ----*- C++ -*-===//

#ifndef TILEKIT_PYTHON_IRBINDINGS_H
#define TILEKIT_PYTHON_IRBINDINGS_H

#include <pybind11/pybind11.h>

namespace tilekit::python {
/// Adds the submodule `ir` (IRBindings.cpp) to the native module.
void bindIR(pybind11::module_ &parent);
} // namespace tilekit::python

#endif // TILEKIT_PYTHON_IRBINDINGS_H
