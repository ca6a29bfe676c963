//===- PipeOpInterface.h - Which pipe an op occupies -------------*- C++
//-*-===//

#ifndef TILEKIT_INTERFACES_PIPEOPINTERFACE_H
#define TILEKIT_INTERFACES_PIPEOPINTERFACE_H

#include "tilekit/Machine/Machine.h"

#include "mlir/IR/OpDefinition.h"

#include <optional>

namespace tilekit::OpTrait {

/// The op runs on pipe `P` (read by PipeOpInterface's default
/// getExecutionPipe).
template <machine::Pipe P> struct OnPipe {
  template <typename ConcreteType>
  class Impl : public mlir::OpTrait::TraitBase<ConcreteType, Impl> {
  public:
    static constexpr std::optional<machine::Pipe> kPipe = P;
  };
};

/// No pipe executes the op.
template <typename ConcreteType>
class NoPipe : public mlir::OpTrait::TraitBase<ConcreteType, NoPipe> {
public:
  static constexpr std::optional<machine::Pipe> kPipe = std::nullopt;
};

/// A transfer: the pipe is the engine of the op's data path.
template <typename ConcreteType>
class TransferPipe
    : public mlir::OpTrait::TraitBase<ConcreteType, TransferPipe> {};

} // namespace tilekit::OpTrait

#include "tilekit/Interfaces/PipeOpInterface.h.inc"

#endif // TILEKIT_INTERFACES_PIPEOPINTERFACE_H
