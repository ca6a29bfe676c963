//===- PTOInterfaces.td - PTO op interfaces -----------------*- tablegen -*-===//

#ifndef TILEKIT_DIALECT_PTO_IR_PTOINTERFACES_TD
#define TILEKIT_DIALECT_PTO_IR_PTOINTERFACES_TD

include "mlir/IR/OpBase.td"

def PTO_MatmulOpInterface : OpInterface<"MatmulOpInterface"> {
  let description = [{
    A cube matmul: the roles of its operands. The executor, the trace
    emitter and the undefined-data check read these instead of knowing
    each op. Roles an op does not have are null.
  }];
  let cppNamespace = "::tilekit::pto";
  let methods = [
    InterfaceMethod<"The left (A, L0A) operand", "::mlir::Value",
                    "getLeftOperand", (ins), "", [{ return $_op.getLhs(); }]>,
    InterfaceMethod<"The right (B, L0B) operand", "::mlir::Value",
                    "getRightOperand", (ins), "", [{ return $_op.getRhs(); }]>,
    InterfaceMethod<"The accumulator read and overwritten, if any",
                    "::mlir::Value", "getAccumulator", (ins), "", [{
      if constexpr (requires { $_op.getAcc(); })
        return $_op.getAcc();
      return {};
    }]>,
    InterfaceMethod<"The accumulator-init condition (MAD's init bit), if any",
                    "::mlir::Value", "getInitCondition", (ins), "", [{
      if constexpr (requires { $_op.getInitCond(); })
        return $_op.getInitCond();
      return {};
    }]>,
    InterfaceMethod<"The bias-table operand, if any", "::mlir::Value",
                    "getBiasOperand", (ins), "", [{
      if constexpr (requires { $_op.getBias(); })
        return $_op.getBias();
      return {};
    }]>,
    InterfaceMethod<"How many matmuls it performs: the leading extent of a "
                    "batched (rank-3) operand, else 1", "int64_t",
                    "getBatchCount", (ins), "", [{
      auto lhs = ::llvm::cast<::mlir::ShapedType>($_op.getLhs().getType());
      return lhs.getRank() == 3 ? lhs.getDimSize(0) : 1;
    }]>
  ];
}

def PTO_ElementwiseOpInterface : OpInterface<"ElementwiseOpInterface"> {
  let description = [{
    An op of an elementwise family (binary, with a scalar, unary, a row or
    column reduction, a row or column broadcast-combine) computing one
    named function (`add`, `exp`, `sum`, ...) at the tile or tensor level.
    Emitters map the family and function, not the op's name.
  }];
  let cppNamespace = "::tilekit::pto";
  let methods = [
    StaticInterfaceMethod<"The op's family", "::tilekit::pto::ElementwiseFamily",
                          "getFamily", (ins), [{ return ConcreteOp::kFamily; }]>,
    StaticInterfaceMethod<"The function it computes (add, exp, sum, ...)",
                          "::llvm::StringRef", "getFunction", (ins),
                          [{ return ConcreteOp::kFunction; }]>
  ];
}

def PTO_SharedStorageOpInterface : OpInterface<"SharedStorageOpInterface"> {
  let description = [{
    An op whose tile result lives in the storage of one of its tile
    operands: it updates a destination in place (`tile.assemble`,
    `tile.write`, `tile.scatter`), views a tile another way
    (`tile.set_validshape`, `tile.reshape`), or computes into its source
    (the scans, `tile.mrgsort`). Such a result has its operand's address
    (its type says so), so memory planning gives the two one storage and
    rejects a plan in which the operand is still needed after the op.
  }];
  let cppNamespace = "::tilekit::pto";
  let methods = [
    InterfaceMethod<"The operand whose storage `result` occupies, or null",
                    "::mlir::OpOperand *", "getStorageOperand",
                    (ins "::mlir::OpResult":$result)>
  ];
}

/// Members of an elementwise family: `family` is an ElementwiseFamily
/// enumerator, `function` what the op computes.
class PTO_Elementwise<string family, string function> {
  string elementwiseDeclaration = [{
    static constexpr ::tilekit::pto::ElementwiseFamily kFamily =
        ::tilekit::pto::ElementwiseFamily::}] # family # [{;
    static constexpr ::llvm::StringLiteral kFunction = "}] # function # [{";
  }];
}

#endif // TILEKIT_DIALECT_PTO_IR_PTOINTERFACES_TD
