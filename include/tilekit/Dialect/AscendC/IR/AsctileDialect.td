//===- AsctileDialect.td - Front-end unrolling attributes ---*- tablegen -*-===//
//
// The tile front end marks each iteration of an unrolled loop with
// `asctile.*` attributes that the AscendC reuse passes read. The dialect has
// no ops: it declares and verifies those attributes, so a misspelled or
// ill-typed one is an error where it sits.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_IR_ASCTILEDIALECT_TD
#define TILEKIT_DIALECT_ASCENDC_IR_ASCTILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Asctile_Dialect : Dialect {
  let name = "asctile";
  let cppNamespace = "::tilekit::ascendc";
  let summary = "Attributes of unrolled tile loops, read by AscendC passes";
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// scf.execute_region of an unrolled iteration: the unroll factor F,
    /// a positive integer.
    static constexpr ::llvm::StringLiteral kUnrollFactorAttrName =
        "asctile.unroll_factor";
    /// op of an unrolled iteration: its index i, 0 <= i <= F (F marks the
    /// epilogue).
    static constexpr ::llvm::StringLiteral kUnrollIterAttrName =
        "asctile.unroll_iter";
  }];
}

#endif // TILEKIT_DIALECT_ASCENDC_IR_ASCTILEDIALECT_TD
