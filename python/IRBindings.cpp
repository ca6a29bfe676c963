//===- IRBindings.cpp - Building IR from Python (`_native.ir`) ------------===//
//
// The small IR object model `tilekit.lang` builds kernels with: types and
// attributes (parsed from MLIR text, or made from Python values), locations,
// modules, regions, blocks, values and generic operation creation. The op
// classes themselves are generated from the dialects' ODS by mlir-tblgen
// (`--gen-python-op-bindings`) and call `create_operation` through the shim
// in tilekit/_mlir/ir.py, so op signatures have one source: the .td files.
// Every operation is verified as it is made (a region op when its body is
// finished), and a failure raises IRError with the diagnostics at the
// operation's location, the Python line that built it.
//
//===----------------------------------------------------------------------===//

#include "IRBindings.h"

#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/InitAll.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Parser/Parser.h"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;

namespace {

/// The one context every built kernel lives in (its dialects loaded).
MLIRContext &context() {
  static MLIRContext *shared = [] {
    DialectRegistry registry;
    tilekit::registerAllDialects(registry);
    auto *ctx = new MLIRContext(registry);
    ctx->loadAllAvailableDialects();
    // Errors name the Python line; the op's generic form adds nothing.
    ctx->printOpOnDiagnostic(false);
    // No threads: tilekit.tune forks worker processes from this one.
    ctx->disableMultithreading();
    return ctx;
  }();
  return *shared;
}

/// An IR failure: the diagnostics as "file:line:col: error: message" lines.
struct IRError {
  std::string message;
};

/// Collects the diagnostics of one call; raise() throws them as IRError.
class Diagnostics {
public:
  Diagnostics()
      : handler(&context(), [this](Diagnostic &diag) {
          llvm::raw_string_ostream os(text);
          print(os, diag);
          for (Diagnostic &note : diag.getNotes())
            print(os, note);
          return success();
        }) {}
  [[noreturn]] void raise(llvm::StringRef fallback) {
    throw IRError{text.empty() ? fallback.str() : text};
  }

private:
  static void print(llvm::raw_ostream &os, Diagnostic &diag) {
    if (auto loc = diag.getLocation()->findInstanceOf<FileLineColLoc>())
      os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
         << loc.getColumn() << ": ";
    os << (diag.getSeverity() == DiagnosticSeverity::Note ? "note: "
                                                          : "error: ")
       << diag.str() << "\n";
  }
  std::string text;
  ScopedDiagnosticHandler handler;
};

/// Owns a module built from Python.
struct PyModule {
  OwningOpRef<ModuleOp> module;
};

Type parseTypeText(const std::string &text) {
  Diagnostics diagnostics;
  Type type = mlir::parseType(text, &context());
  if (!type)
    diagnostics.raise("not a type: " + text);
  return type;
}

Attribute parseAttributeText(const std::string &text) {
  Diagnostics diagnostics;
  Attribute attr = mlir::parseAttribute(text, &context());
  if (!attr)
    diagnostics.raise("not an attribute: " + text);
  return attr;
}

template <typename T> std::string printed(T entity) {
  std::string text;
  llvm::raw_string_ostream os(text);
  entity.print(os);
  return text;
}

/// The i32 attribute of a case of one of PTO's enums, from its name or its
/// value ("PTO_SplitCode", "up_down" or 1), as the ODS attribute stores it.
template <typename Enum>
std::optional<int64_t> enumValue(const py::object &value,
                                 std::optional<Enum> (*byName)(llvm::StringRef),
                                 std::optional<Enum> (*byValue)(uint32_t)) {
  std::optional<Enum> found;
  if (py::isinstance<py::str>(value))
    found = byName(value.cast<std::string>());
  else if (py::isinstance<py::int_>(value) && value.cast<int64_t>() >= 0)
    found = byValue(value.cast<uint32_t>());
  if (!found)
    return std::nullopt;
  return static_cast<int64_t>(*found);
}

Attribute enumAttribute(const std::string &kind, const py::object &value) {
  using namespace tilekit::pto;
  std::optional<int64_t> number;
  if (kind == "PTO_SplitCode")
    number =
        enumValue<SplitCode>(value, symbolizeSplitCode, symbolizeSplitCode);
  else if (kind == "PTO_CmpPredicate")
    number = enumValue<CmpPredicate>(value, symbolizeCmpPredicate,
                                     symbolizeCmpPredicate);
  else if (kind == "PTO_PadValue")
    number = enumValue<PadValue>(value, symbolizePadValue, symbolizePadValue);
  else if (kind == "PTO_Pipe")
    number = enumValue<Pipe>(value, symbolizePipe, symbolizePipe);
  else if (kind == "PTO_PipeDirection")
    number = enumValue<PipeDirection>(value, symbolizePipeDirection,
                                      symbolizePipeDirection);
  else if (kind == "PTO_RoundMode")
    number =
        enumValue<RoundMode>(value, symbolizeRoundMode, symbolizeRoundMode);
  else
    throw py::value_error("no attribute builder for " + kind);
  if (!number)
    throw py::value_error(kind + ": no case " +
                          py::str(value).cast<std::string>());
  return IntegerAttr::get(IntegerType::get(&context(), 32), *number);
}

/// Creates `name` at the end of `block` (or before `before`); without
/// result types, the op's InferTypeOpInterface infers them. Verified unless
/// it has regions (verify() once its body is built).
Operation *createOperation(
    const std::string &name, std::optional<std::vector<Type>> results,
    const std::vector<Value> &operands,
    const std::vector<std::pair<std::string, Attribute>> &attributes,
    unsigned regions, Location loc, Block *block, Operation *before) {
  Diagnostics diagnostics;
  std::optional<RegisteredOperationName> info =
      RegisteredOperationName::lookup(name, &context());
  if (!info)
    throw py::value_error("no operation " + name);
  OperationState state(loc, *info);
  state.addOperands(operands);
  for (const auto &[key, value] : attributes)
    state.addAttribute(key, value);
  for (unsigned i = 0; i < regions; ++i)
    state.addRegion();
  if (results) {
    state.addTypes(*results);
  } else {
    auto infer = info->getInterface<InferTypeOpInterface>();
    if (!infer)
      throw py::value_error(name + ": give the result types (it infers none)");
    // Inference reads the op's properties: made from the attributes.
    DictionaryAttr dictionary = state.attributes.getDictionary(&context());
    std::vector<char> storage(info->getOpPropertyByteSize() + 1);
    OpaqueProperties properties(storage.data());
    info->initOpProperties(properties, OpaqueProperties(nullptr));
    llvm::SmallVector<Type> inferred;
    bool ok = succeeded(info->setOpPropertiesFromAttribute(
                  *info, properties, dictionary,
                  [&] { return emitError(loc) << name << ": "; })) &&
              succeeded(infer->inferReturnTypes(&context(), loc, state.operands,
                                                dictionary, properties,
                                                state.regions, inferred));
    info->destroyOpProperties(properties);
    if (!ok)
      diagnostics.raise(name + ": cannot infer its result types");
    state.addTypes(inferred);
  }
  Operation *op = Operation::create(state);
  if (before)
    before->getBlock()->getOperations().insert(before->getIterator(), op);
  else if (block)
    block->push_back(op);
  if (regions == 0 && failed(mlir::verify(op))) {
    op->erase();
    diagnostics.raise(name + " does not verify");
  }
  return op;
}

} // namespace

void tilekit::python::bindIR(py::module_ &parent) {
  py::module_ m = parent.def_submodule(
      "ir", "IR objects tilekit.lang builds kernels with (docs/python.md)");
  static py::exception<IRError> irError(m, "IRError");
  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error)
        std::rethrow_exception(error);
    } catch (const IRError &failure) {
      PyErr_SetString(irError.ptr(), failure.message.c_str());
    }
  });

  py::class_<Type>(m, "Type")
      .def_static("parse", &parseTypeText, py::arg("text"))
      .def("__str__", [](Type t) { return printed(t); })
      .def("__repr__", [](Type t) { return "Type(" + printed(t) + ")"; })
      .def("__eq__", [](Type a, Type b) { return a == b; })
      .def("__hash__",
           [](Type t) {
             return reinterpret_cast<uintptr_t>(t.getAsOpaquePointer());
           })
      .def_property_readonly("is_index", [](Type t) { return t.isIndex(); })
      .def_property_readonly("is_float",
                             [](Type t) { return isa<FloatType>(t); })
      // A shaped type's dimensions (None where dynamic), else None.
      .def_property_readonly(
          "shape",
          [](Type t) -> std::optional<std::vector<std::optional<int64_t>>> {
            auto shaped = dyn_cast<ShapedType>(t);
            if (!shaped)
              return std::nullopt;
            std::vector<std::optional<int64_t>> dims;
            for (int64_t d : shaped.getShape())
              dims.push_back(ShapedType::isDynamic(d)
                                 ? std::nullopt
                                 : std::optional<int64_t>(d));
            return dims;
          })
      .def_property_readonly("element_type",
                             [](Type t) -> std::optional<Type> {
                               if (auto shaped = dyn_cast<ShapedType>(t))
                                 return shaped.getElementType();
                               return std::nullopt;
                             })
      // The same kind of shaped type (a tile keeps its memory space and
      // layout) with another shape and element type.
      .def(
          "clone",
          [](Type t, std::vector<std::optional<int64_t>> shape,
             Type element) -> Type {
            auto shaped = dyn_cast<ShapedType>(t);
            if (!shaped)
              throw py::value_error(printed(t) + " is not shaped");
            llvm::SmallVector<int64_t> dims;
            for (std::optional<int64_t> d : shape)
              dims.push_back(d ? *d : ShapedType::kDynamic);
            return shaped.cloneWith(dims, element);
          },
          py::arg("shape"), py::arg("element_type"));

  py::class_<Attribute>(m, "Attribute")
      .def_static("parse", &parseAttributeText, py::arg("text"))
      .def("__str__", [](Attribute a) { return printed(a); })
      .def("__eq__", [](Attribute a, Attribute b) { return a == b; })
      .def_property_readonly("int_value", [](Attribute a) -> py::object {
        if (auto i = dyn_cast<IntegerAttr>(a))
          return py::int_(i.getValue().getSExtValue());
        return py::none();
      });
  m.def(
      "integer_attr",
      [](Type type, int64_t value) -> Attribute {
        return IntegerAttr::get(type, value);
      },
      py::arg("type"), py::arg("value"));
  m.def(
      "float_attr",
      [](Type type, double value) -> Attribute {
        return FloatAttr::get(type, value);
      },
      py::arg("type"), py::arg("value"));
  m.def("unit_attr", []() -> Attribute { return UnitAttr::get(&context()); });
  m.def(
      "string_attr",
      [](const std::string &s) -> Attribute {
        return StringAttr::get(&context(), s);
      },
      py::arg("value"));
  m.def(
      "type_attr", [](Type t) -> Attribute { return TypeAttr::get(t); },
      py::arg("type"));
  m.def(
      "symbol_ref_attr",
      [](const std::string &s) -> Attribute {
        return FlatSymbolRefAttr::get(&context(), s);
      },
      py::arg("name"));
  m.def(
      "dense_i32_array_attr",
      [](const std::vector<int32_t> &items) -> Attribute {
        return DenseI32ArrayAttr::get(&context(), items);
      },
      py::arg("items"));
  m.def(
      "dense_i64_array_attr",
      [](const std::vector<int64_t> &items) -> Attribute {
        return DenseI64ArrayAttr::get(&context(), items);
      },
      py::arg("items"));
  m.def("enum_attr", &enumAttribute, py::arg("kind"), py::arg("value"));
  m.def(
      "function_type",
      [](const std::vector<Type> &inputs, const std::vector<Type> &results)
          -> Type { return FunctionType::get(&context(), inputs, results); },
      py::arg("inputs"), py::arg("results"));

  py::class_<Location>(m, "Location")
      .def_static(
          "file",
          [](const std::string &file, unsigned line, unsigned column) {
            return Location(
                FileLineColLoc::get(&context(), file, line, column));
          },
          py::arg("file"), py::arg("line"), py::arg("column"))
      .def_static("unknown",
                  []() { return Location(UnknownLoc::get(&context())); })
      .def_static(
          "named",
          [](const std::string &name, Location loc) {
            return Location(
                NameLoc::get(StringAttr::get(&context(), name), loc));
          },
          py::arg("name"), py::arg("loc"))
      .def("__str__", [](Location l) { return printed(l); });

  // The SSA name a value prints with (`%x`): a NameLoc around its
  // location. The first name a value gets stays.
  m.def(
      "name_value",
      [](Value v, const std::string &name) {
        auto named = [&](Location loc) -> std::optional<Location> {
          if (isa<NameLoc>(loc))
            return std::nullopt;
          return Location(NameLoc::get(StringAttr::get(&context(), name), loc));
        };
        if (auto arg = dyn_cast<BlockArgument>(v)) {
          if (auto loc = named(arg.getLoc()))
            arg.setLoc(*loc);
          return;
        }
        Operation *op = v.getDefiningOp();
        if (op->getNumResults() == 1)
          if (auto loc = named(op->getLoc()))
            op->setLoc(*loc);
      },
      py::arg("value"), py::arg("name"));
  // A function's result types.
  m.def(
      "function_results",
      [](Operation &op) {
        auto type = op.getAttrOfType<TypeAttr>("function_type");
        auto function =
            type ? dyn_cast<FunctionType>(type.getValue()) : FunctionType();
        if (!function)
          throw py::value_error("not a function");
        return std::vector<Type>(function.getResults().begin(),
                                 function.getResults().end());
      },
      py::arg("op"));
  // `op` made again with other result types, its regions moved over (an
  // scf.if whose branches turned out to produce values).
  m.def(
      "retype_results",
      [](Operation &op, const std::vector<Type> &types) {
        OperationState state(op.getLoc(), op.getName());
        state.addOperands(op.getOperands());
        for (NamedAttribute attr : op.getDiscardableAttrs())
          state.addAttribute(attr.getName(), attr.getValue());
        state.propertiesAttr = op.getPropertiesAsAttribute();
        state.addTypes(types);
        for (Region &region : op.getRegions())
          state.addRegion()->takeBody(region);
        OpBuilder builder(&op);
        Operation *made = builder.create(state);
        op.erase();
        return made;
      },
      py::arg("op"), py::arg("types"), py::return_value_policy::reference);
  m.def(
      "clear_region", [](Region &region) { region.getBlocks().clear(); },
      py::arg("region"));

  py::class_<Value>(m, "Value")
      .def_property_readonly("type", [](Value v) { return v.getType(); })
      .def("__eq__", [](Value a, Value b) { return a == b; })
      .def("__hash__", [](Value v) {
        return reinterpret_cast<uintptr_t>(v.getAsOpaquePointer());
      });

  py::class_<Block>(m, "Block")
      .def_property_readonly("arguments",
                             [](Block &b) {
                               return std::vector<Value>(b.args_begin(),
                                                         b.args_end());
                             })
      .def(
          "add_argument",
          [](Block &b, Type t, Location loc) -> Value {
            return b.addArgument(t, loc);
          },
          py::arg("type"), py::arg("loc"))
      .def_property_readonly(
          "operations",
          [](Block &b) {
            std::vector<Operation *> ops;
            for (Operation &op : b)
              ops.push_back(&op);
            return ops;
          },
          py::return_value_policy::reference);

  py::class_<Region>(m, "Region")
      .def_property_readonly(
          "blocks",
          [](Region &r) {
            std::vector<Block *> blocks;
            for (Block &b : r)
              blocks.push_back(&b);
            return blocks;
          },
          py::return_value_policy::reference)
      .def(
          "add_block", [](Region &r) { return &r.emplaceBlock(); },
          py::return_value_policy::reference);

  py::class_<Operation, std::unique_ptr<Operation, py::nodelete>>(m,
                                                                  "Operation")
      .def_property_readonly(
          "name",
          [](Operation &op) { return op.getName().getStringRef().str(); })
      .def_property_readonly("results",
                             [](Operation &op) {
                               return std::vector<Value>(op.result_begin(),
                                                         op.result_end());
                             })
      .def_property_readonly("operands",
                             [](Operation &op) {
                               return std::vector<Value>(op.operand_begin(),
                                                         op.operand_end());
                             })
      .def_property_readonly(
          "regions",
          [](Operation &op) {
            std::vector<Region *> regions;
            for (Region &r : op.getRegions())
              regions.push_back(&r);
            return regions;
          },
          py::return_value_policy::reference)
      .def_property_readonly("location",
                             [](Operation &op) { return op.getLoc(); })
      .def("get_attr",
           [](Operation &op,
              const std::string &name) -> std::optional<Attribute> {
             if (Attribute a = op.getAttr(name))
               return a;
             return std::nullopt;
           })
      .def("set_attr", [](Operation &op, const std::string &name,
                          Attribute value) { op.setAttr(name, value); })
      .def("has_attr",
           [](Operation &op, const std::string &name) {
             return static_cast<bool>(op.getAttr(name));
           })
      // Verifies the op and what it holds (a region op once built).
      .def("verify",
           [](Operation &op) {
             Diagnostics diagnostics;
             if (failed(mlir::verify(&op)))
               diagnostics.raise(op.getName().getStringRef().str() +
                                 " does not verify");
           })
      .def("__str__", [](Operation &op) {
        std::string text;
        llvm::raw_string_ostream os(text);
        op.print(os, OpPrintingFlags().assumeVerified());
        return text;
      });

  m.def("create_operation", &createOperation, py::arg("name"),
        py::arg("results"), py::arg("operands"), py::arg("attributes"),
        py::arg("regions"), py::arg("loc"), py::arg("block"),
        py::arg("before") = nullptr, py::return_value_policy::reference);

  py::class_<PyModule>(m, "Module")
      .def(py::init(
               [](Location loc) { return PyModule{ModuleOp::create(loc)}; }),
           py::arg("loc"))
      .def_static(
          "parse",
          [](const std::string &text) {
            Diagnostics diagnostics;
            OwningOpRef<ModuleOp> module =
                parseSourceString<ModuleOp>(text, &context());
            if (!module)
              diagnostics.raise("the text does not parse");
            return PyModule{std::move(module)};
          },
          py::arg("text"))
      .def_property_readonly(
          "body", [](PyModule &m) { return m.module->getBody(); },
          py::return_value_policy::reference)
      .def_property_readonly(
          "operation", [](PyModule &m) { return m.module->getOperation(); },
          py::return_value_policy::reference)
      // The text the command-line tools read; with locations, each op's
      // `loc(...)` too, so their diagnostics name the Python lines.
      .def(
          "to_text",
          [](PyModule &m, bool locations) {
            std::string text;
            llvm::raw_string_ostream os(text);
            OpPrintingFlags flags;
            flags.printNameLocAsPrefix(true);
            if (locations)
              flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
            m.module->print(os, flags);
            return text;
          },
          py::arg("locations") = false);
}
