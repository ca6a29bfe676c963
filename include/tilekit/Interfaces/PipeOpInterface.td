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
                    "", [{ return ConcreteOp::kPipe; }]>,
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

/// An op executed on one fixed pipe.
class Tilekit_OnPipe<string pipe>
    : TraitList<[Tilekit_PipeOpInterface, Tilekit_OnPipeTrait<pipe>]>;

/// An op no pipe executes.
def Tilekit_NoPipe : TraitList<[Tilekit_PipeOpInterface, Tilekit_NoPipeTrait]>;

/// A transfer: its pipe and path come from its operands.
def Tilekit_Transfer
    : DeclareOpInterfaceMethods<Tilekit_PipeOpInterface, ["getExecutionPipe", "getDataPath"]>;

#endif // TILEKIT_INTERFACES_PIPEOPINTERFACE_TD
