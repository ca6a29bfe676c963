//===- AscendCTypes.td - AscendC tensor types ---------------*- tablegen -*-===//

#ifndef TILEKIT_DIALECT_ASCENDC_IR_ASCENDCTYPES_TD
#define TILEKIT_DIALECT_ASCENDC_IR_ASCENDCTYPES_TD

include "tilekit/Dialect/AscendC/IR/AscendCAttrs.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class AscendC_ShapedType<string name, string typeMnemonic, string what>
    : TypeDef<AscendC_Dialect, name, [ShapedTypeInterface]> {
  let mnemonic = typeMnemonic;
  let summary = what;
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    using mlir::ShapedType::Trait<}] # name # [{Type>::getRank;
    bool hasRank() const { return true; }
    }] # name # [{Type cloneWith(std::optional<llvm::ArrayRef<int64_t>> shape,
                       mlir::Type elementType) const {
      return get(getContext(), shape.value_or(getShape()), elementType);
    }
  }];
}

def AscendC_LocalTensorType : AscendC_ShapedType<"LocalTensor", "local_tensor",
    "a tensor in the core's on-chip buffers"> {
  let description = [{
    `!ascendc.local_tensor<16x32xf16>`: a statically shaped tensor in an
    on-chip buffer. Its position and address belong to the op that defines
    it.
  }];
}

def AscendC_GlobalTensorType : AscendC_ShapedType<"GlobalTensor",
    "global_tensor", "a tensor in global memory (GM)"> {
  let description = [{
    `!ascendc.global_tensor<?x128xf32>`: a tensor in GM; dimensions may be
    dynamic (`?`).
  }];
}

#endif // TILEKIT_DIALECT_ASCENDC_IR_ASCENDCTYPES_TD
