//===- PipeOpInterface.td - Which pipe an op occupies -------*- tablegen -*-===//
//
// Every PTO and AscendC op says which pipe of its core executes it (or that
// none does). The trace emitter, the sync passes and the lowering ask this
// interface; an op without it is an error there, never "a vector op by
// default". Most ops take a fixed pipe from a trait (Tilekit_OnPipe,
// Tilekit_NoPipe); transfers compute theirs from the data path they take.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_INTERFACES_PIPEOPINTERFACE_TD
#define TILEKIT_INTERFACES_PIPEOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def Tilekit_PipeOpInterface : OpInterface<"PipeOpInterface"> {
  let description = [{
    The pipe of its core that executes the op, from the machine description
    (include/tilekit/Machine/Machine.def): none for ops the machine does not
    execute on a pipe (allocation, views, metadata, flags). A transfer also
    names the data path it moves data along.
  }];
  let cppNamespace = "::tilekit";
  let methods = [
    InterfaceMethod<"The pipe that executes the op; none when no pipe does",
                    "std::optional<::tilekit::machine::Pipe>", "getExecutionPipe", (ins),
                    "", [{
      // A transfer's pipe is its path's engine; every other op names its
      // pipe with a trait (a compile error when it has none).
      if constexpr (ConcreteOp::template hasTrait<
                        ::tilekit::OpTrait::TransferPipe>()) {
        std::optional<::tilekit::machine::DataPath> path = $_op.getDataPath();
        if (!path)
          return std::nullopt;
        return ::tilekit::machine::getPipe(*path);
      } else {
        return ConcreteOp::kPipe;
      }
    }]>,
    InterfaceMethod<"The data path a transfer takes; none for other ops",
                    "std::optional<::tilekit::machine::DataPath>",
                    "getDataPath", (ins), "", [{ return std::nullopt; }]>
  ];
}

class Tilekit_OnPipeTrait<string pipe>
    : ParamNativeOpTrait<"OnPipe", "::tilekit::machine::Pipe::" # pipe> {
  let cppNamespace = "::tilekit::OpTrait";
}
def Tilekit_NoPipeTrait : NativeOpTrait<"NoPipe"> {
  let cppNamespace = "::tilekit::OpTrait";
}
def Tilekit_TransferPipeTrait : NativeOpTrait<"TransferPipe"> {
  let cppNamespace = "::tilekit::OpTrait";
}

/// An op executed on one fixed pipe.
class Tilekit_OnPipe<string pipe>
    : TraitList<[Tilekit_PipeOpInterface, Tilekit_OnPipeTrait<pipe>]>;

/// An op no pipe executes.
def Tilekit_NoPipe : TraitList<[Tilekit_PipeOpInterface, Tilekit_NoPipeTrait]>;

/// A transfer: it implements getDataPath (from its operands); its pipe is
/// the path's engine.
def Tilekit_Transfer
    : TraitList<[DeclareOpInterfaceMethods<Tilekit_PipeOpInterface, ["getDataPath"]>,
                 Tilekit_TransferPipeTrait]>;

#endif // TILEKIT_INTERFACES_PIPEOPINTERFACE_TD
