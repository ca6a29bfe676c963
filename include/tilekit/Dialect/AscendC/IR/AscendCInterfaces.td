//===- AscendCInterfaces.td - AscendC op interfaces ---------*- tablegen -*-===//

#ifndef TILEKIT_DIALECT_ASCENDC_IR_ASCENDCINTERFACES_TD
#define TILEKIT_DIALECT_ASCENDC_IR_ASCENDCINTERFACES_TD

include "mlir/IR/OpBase.td"

def AscendC_VectorL2OpInterface : OpInterface<"VectorL2OpInterface"> {
  let description = [{
    A simple-level (L2) vector instruction: it works on `count` elements,
    all of its destination when the count is absent.
  }];
  let cppNamespace = "::tilekit::ascendc";
  let methods = [
    InterfaceMethod<"The element count operand, if given", "::mlir::Value",
                    "getCount">,
    InterfaceMethod<"The element count operand, to set it",
                    "::mlir::MutableOperandRange", "getCountMutable">,
    StaticInterfaceMethod<
        "Whether -ascendc-lower-to-l0 rewrites it to its mask/repeat form "
        "(the advanced APIs have none)", "bool", "lowersToL0", (ins), [{}],
        [{ return true; }]>,
    StaticInterfaceMethod<
        "The Ascend C function it calls (empty: its name without the level, "
        "in camel case: shift_left_l2 -> ShiftLeft)", "::llvm::StringRef",
        "getApiName", (ins), [{}], [{ return ""; }]>,
    StaticInterfaceMethod<
        "A fixed mode argument the Ascend C call takes before the count "
        "(empty: none)", "::llvm::StringRef", "getApiMode", (ins), [{}],
        [{ return ""; }]>
  ];
}

def AscendC_VectorL0OpInterface : OpInterface<"VectorL0OpInterface"> {
  let description = [{
    A low-level (L0) vector instruction: `repeat` repeats of the lanes its
    mask selects (the first `mask` ones, or those whose bit is set in the
    `mask_bits` words), with block and repeat strides per tensor operand.
  }];
  let cppNamespace = "::tilekit::ascendc";
  let methods = [
    InterfaceMethod<"The mask operand, if given", "::mlir::Value", "getMask">,
    InterfaceMethod<"The high word of the lane bit mask, if given",
                    "::mlir::Value", "getMaskHigh">,
    InterfaceMethod<"The low word of the lane bit mask, if given",
                    "::mlir::Value", "getMaskLow">,
    InterfaceMethod<"The repeat operand, if given", "::mlir::Value",
                    "getRepeat">,
    InterfaceMethod<"The mask operand, to set it",
                    "::mlir::MutableOperandRange", "getMaskMutable">,
    InterfaceMethod<"The repeat operand, to set it",
                    "::mlir::MutableOperandRange", "getRepeatMutable">,
    InterfaceMethod<"The strides, if given", "::mlir::DenseI64ArrayAttr",
                    "getStridesAttr">,
    InterfaceMethod<"Sets the strides", "void", "setStridesAttr",
                    (ins "::mlir::DenseI64ArrayAttr":$strides)>
  ];
}

def AscendC_ScratchOpInterface : OpInterface<"ScratchOpInterface"> {
  let description = [{
    An advanced-API call that takes a `sharedTmpBuffer`: scratch in UB whose
    size the API's host-side `Get...MaxMinTmpSize` gives (the rules are in
    `tilekit/Machine/ApiScratch.h`). Its form without one takes the scratch
    from a `TPipe`, which a static-tensor kernel does not have, so
    `ascendc-dispatch-alloc` plans one for every such op.
  }];
  let cppNamespace = "::tilekit::ascendc";
  let methods = [
    InterfaceMethod<"The scratch operand, to set it",
                    "::mlir::MutableOperandRange", "getTmpMutable">,
    InterfaceMethod<[{
        The scratch bytes the call needs on the architecture (`c310`), or
        failure, reported at the op, when the API does not take the call's
        element type there
      }], "::mlir::FailureOr<uint32_t>", "getScratchBytes", (ins "bool":$c310)>
  ];
}

#endif // TILEKIT_DIALECT_ASCENDC_IR_ASCENDCINTERFACES_TD
