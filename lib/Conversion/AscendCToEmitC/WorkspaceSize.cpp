//===- WorkspaceSize.cpp - The workspace bytes the host allocates ---------===//
//
// A kernel's workspace regions of run-time shape (pto.tensor.create with
// sizes) are sized by the host before it launches: from the tiling data it
// passes (scalars and the extents of the GM tensors). This file prints that
// size as a C++ expression over whatever names the caller gives the
// arguments: the tiling struct's fields in the host code, the kernel ABI's
// `args` slots in the CPU entry. ascendc-form-launch has checked that the
// sizes are computed from those alone (WorkspaceOp::getSizeComputation).
//
//===----------------------------------------------------------------------===//

#include "Emit.h"

#include "tilekit/Conversion/AscendCToEmitC.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace tilekit;

namespace {

/// `value`'s C++ (an int64_t) from what `known` holds for its operands, or
/// nothing for an op with no form here.
std::optional<std::string>
printOp(Operation *op, const llvm::DenseMap<Value, std::string> &known) {
  auto arg = [&](unsigned index) {
    return "(" + known.lookup(op->getOperand(index)) + ")";
  };
  auto binary = [&](StringRef sign) {
    return arg(0) + " " + sign.str() + " " + arg(1);
  };
  auto unsignedBinary = [&](StringRef sign) {
    return "int64_t(uint64_t" + arg(0) + " " + sign.str() + " uint64_t" +
           arg(1) + ")";
  };
  auto choose = [&](StringRef compare) {
    return "(" + arg(0) + " " + compare.str() + " " + arg(1) + " ? " + arg(0) +
           " : " + arg(1) + ")";
  };
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto value = dyn_cast<IntegerAttr>(constant.getValue());
    if (!value)
      return std::nullopt;
    return "int64_t(" + std::to_string(value.getValue().getSExtValue()) + ")";
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp>(op))
    return arg(0);
  if (isa<arith::AddIOp>(op))
    return binary("+");
  if (isa<arith::SubIOp>(op))
    return binary("-");
  if (isa<arith::MulIOp>(op))
    return binary("*");
  if (isa<arith::DivSIOp>(op))
    return binary("/");
  if (isa<arith::RemSIOp>(op))
    return binary("%");
  if (isa<arith::DivUIOp>(op))
    return unsignedBinary("/");
  if (isa<arith::RemUIOp>(op))
    return unsignedBinary("%");
  if (isa<arith::MaxSIOp>(op))
    return choose(">");
  if (isa<arith::MinSIOp>(op))
    return choose("<");
  if (isa<arith::MaxUIOp, arith::MinUIOp>(op)) {
    std::string a = "uint64_t" + arg(0), b = "uint64_t" + arg(1);
    std::string compare = isa<arith::MaxUIOp>(op) ? " > " : " < ";
    return "int64_t(" + a + compare + b + " ? " + a + " : " + b + ")";
  }
  // Rounded towards the infinities as arith says, for either sign.
  if (isa<arith::CeilDivSIOp, arith::FloorDivSIOp>(op)) {
    bool ceil = isa<arith::CeilDivSIOp>(op);
    std::string quotient = arg(0) + " / " + arg(1);
    std::string inexact = "(" + arg(0) + " % " + arg(1) + " != 0)";
    std::string sameSign = "((" + arg(0) + " < 0) == (" + arg(1) + " < 0))";
    return "(" + quotient + (ceil ? " + " : " - ") + "int64_t(" + inexact +
           " && " + (ceil ? "" : "!") + sameSign + "))";
  }
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return "(" + arg(0) + " ? " + arg(1) + " : " + arg(2) + ")";
  if (auto compare = dyn_cast<arith::CmpIOp>(op)) {
    using P = arith::CmpIPredicate;
    switch (compare.getPredicate()) {
    case P::eq:
      return binary("==");
    case P::ne:
      return binary("!=");
    case P::slt:
      return binary("<");
    case P::sle:
      return binary("<=");
    case P::sgt:
      return binary(">");
    case P::sge:
      return binary(">=");
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

} // namespace

FailureOr<std::string> tilekit::workspaceBytesExpression(
    func::FuncOp kernel, StringRef blocks,
    function_ref<std::string(unsigned)> scalar,
    function_ref<std::string(unsigned, unsigned)> extent) {
  KernelWorkspace workspace = getKernelWorkspace(kernel);
  // With regions of run-time size, in 128 bits: extents a host is given
  // may make more bytes than 64 bits hold (the callers refuse those).
  std::string wide = workspace.runtimeRegions ? "(__int128)" : "int64_t";
  std::string total = wide + "(" + std::to_string(workspace.shared) + ")";
  if (workspace.perBlock)
    total += " + " + wide + "(" + blocks.str() + ") * " + wide + "(" +
             std::to_string(workspace.perBlock) + ")";
  if (!workspace.runtimeRegions)
    return total;
  llvm::DenseMap<Value, std::string> known;
  for (BlockArgument arg : kernel.getArguments())
    if (!isa<ascendc::GlobalTensorType>(arg.getType()))
      known[arg] = "int64_t(" + scalar(arg.getArgNumber()) + ")";
  for (auto region : kernel.getOps<ascendc::WorkspaceOp>()) {
    if (!region.isDynamic())
      continue;
    SmallVector<Operation *> sizing;
    if (Operation *unknown = region.getSizeComputation(sizing))
      return region.emitOpError()
             << "has a size the host cannot compute before it launches: it "
                "depends on '"
             << unknown->getName() << "' at " << unknown->getLoc();
    for (Operation *op : sizing) {
      auto dim = dyn_cast<ascendc::GlobalDimOp>(op);
      if (!dim) {
        std::optional<std::string> text = printOp(op, known);
        if (!text)
          return op->emitOpError()
                 << "sizes a workspace region and has no C++ form in the "
                    "host code; compute the size with integer arithmetic";
        known[op->getResult(0)] = *text;
        continue;
      }
      auto type = cast<ascendc::GlobalTensorType>(dim.getSource().getType());
      int64_t at = dim.getDim();
      std::string text;
      if (!ShapedType::isDynamic(type.getShape()[at])) {
        text = "int64_t(" + std::to_string(type.getShape()[at]) + ")";
      } else if (Value given = dim.getGivenExtent()) {
        text = known.lookup(given);
      } else {
        auto arg = cast<BlockArgument>(dim.getSource());
        text = "int64_t(" + extent(arg.getArgNumber(), at) + ")";
      }
      known[dim.getResult()] = text;
    }
    // Its elements' bytes, rounded up to 32 as every region is.
    auto type = cast<ascendc::GlobalTensorType>(region.getType());
    int64_t fixed = type.getElementTypeBitWidth() / 8;
    for (int64_t size : type.getShape())
      if (!ShapedType::isDynamic(size))
        fixed *= size;
    std::string bytes = wide + "(" + std::to_string(fixed) + ")";
    for (Value size : region.getSizes())
      bytes += " * (" + known.lookup(size) + ")";
    total += " + (" + bytes + " + 31) / 32 * 32";
  }
  return total;
}

FailureOr<std::string> tilekit::workspaceBytesInAbi(func::FuncOp kernel,
                                                    StringRef blocks) {
  // The slots of emitCpuEntry: the arguments, then the dynamic extents.
  llvm::DenseMap<std::pair<unsigned, unsigned>, unsigned> extentSlots;
  unsigned next = kernel.getNumArguments();
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes()))
    if (auto tensor = dyn_cast<ascendc::GlobalTensorType>(type))
      for (auto [dim, size] : llvm::enumerate(tensor.getShape()))
        if (ShapedType::isDynamic(size))
          extentSlots[{unsigned(index), unsigned(dim)}] = next++;
  return workspaceBytesExpression(
      kernel, blocks,
      [&](unsigned index) {
        Type type = kernel.getArgumentTypes()[index];
        std::string ctype =
            type.isIndex() ? std::string("ptrdiff_t") : emit::elementName(type);
        return "*(const " + ctype + " *)args[" + std::to_string(index) + "]";
      },
      [&](unsigned index, unsigned dim) {
        return "*(const ptrdiff_t *)args[" +
               std::to_string(extentSlots.lookup({index, dim})) + "]";
      });
}
