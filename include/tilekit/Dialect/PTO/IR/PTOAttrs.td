//===- PTOAttrs.td - PTO enums and attributes ---------------*- tablegen -*-===//
//
// Enumerations used by PTO types and ops. Op-level enums are integer-backed
// (`I32EnumAttr`) so they print as bare keywords inside ops; the function kind
// is a dialect attribute because it lives on `func.func`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_PTO_IR_PTOATTRS_TD
#define TILEKIT_DIALECT_PTO_IR_PTOATTRS_TD

include "tilekit/Dialect/PTO/IR/PTODialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/AttrTypeBase.td"

class PTO_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::tilekit::pto";
}

//===----------------------------------------------------------------------===//
// Enums that parameterize the tile type.
//===----------------------------------------------------------------------===//

def PTO_MemorySpace : PTO_I32Enum<"MemorySpace", "on-chip buffer of a tile", [
  I32EnumAttrCase<"Vec", 0, "vec">,     // UB, vector core
  I32EnumAttrCase<"Mat", 1, "mat">,     // L1, cube core
  I32EnumAttrCase<"Left", 2, "left">,   // L0A, cube A operand
  I32EnumAttrCase<"Right", 3, "right">, // L0B, cube B operand
  I32EnumAttrCase<"Acc", 4, "acc">,     // L0C, cube accumulator
  I32EnumAttrCase<"Bias", 5, "bias">    // bias table
]>;

def PTO_BLayout : PTO_I32Enum<"BLayout", "order of fractal blocks (or of "
                              "elements when there are no blocks)", [
  I32EnumAttrCase<"RowMajor", 0, "row_major">,
  I32EnumAttrCase<"ColMajor", 1, "col_major">
]>;

def PTO_SLayout : PTO_I32Enum<"SLayout", "order of elements inside a fractal", [
  I32EnumAttrCase<"NoneBox", 0, "none_box">,
  I32EnumAttrCase<"RowMajor", 1, "row_major">,
  I32EnumAttrCase<"ColMajor", 2, "col_major">
]>;

def PTO_PadValue : PTO_I32Enum<"PadValue", "value outside the valid region", [
  I32EnumAttrCase<"Null", 0, "null">, // undefined: whatever the buffer holds
  I32EnumAttrCase<"Zero", 1, "zero">,
  I32EnumAttrCase<"Min", 2, "min">,   // the element type's finite minimum
  I32EnumAttrCase<"Max", 3, "max">    // the element type's finite maximum
]>;

//===----------------------------------------------------------------------===//
// Enums that parameterize ops.
//===----------------------------------------------------------------------===//

def PTO_RoundMode : PTO_I32Enum<"RoundMode", "rounding mode of a cast", [
  I32EnumAttrCase<"None", 0, "none">,   // the target's default (rint)
  I32EnumAttrCase<"Rint", 1, "rint">,   // to nearest, ties to even
  I32EnumAttrCase<"Round", 2, "round">, // to nearest, ties away from zero
  I32EnumAttrCase<"Floor", 3, "floor">,
  I32EnumAttrCase<"Ceil", 4, "ceil">,
  I32EnumAttrCase<"Trunc", 5, "trunc">,
  I32EnumAttrCase<"Odd", 6, "odd">      // round to odd
]>;

def PTO_CmpPredicate : PTO_I32Enum<"CmpPredicate", "elementwise comparison", [
  I32EnumAttrCase<"EQ", 0, "eq">, I32EnumAttrCase<"NE", 1, "ne">,
  I32EnumAttrCase<"LT", 2, "lt">, I32EnumAttrCase<"LE", 3, "le">,
  I32EnumAttrCase<"GT", 4, "gt">, I32EnumAttrCase<"GE", 5, "ge">
]>;

def PTO_Pipe : PTO_I32Enum<"Pipe", "hardware pipe of an AI core", [
  I32EnumAttrCase<"S", 0, "s">, I32EnumAttrCase<"V", 1, "v">,
  I32EnumAttrCase<"M", 2, "m">, I32EnumAttrCase<"MTE1", 3, "mte1">,
  I32EnumAttrCase<"MTE2", 4, "mte2">, I32EnumAttrCase<"MTE3", 5, "mte3">,
  I32EnumAttrCase<"FIX", 6, "fix">, I32EnumAttrCase<"All", 7, "all">
]>;

// Numbered as the machine description's split codes (Machine.def,
// TILEKIT_SPLIT; lib/Registration/EnumAgreement.cpp checks). Written as the
// integer code: `split 1`.
def PTO_SplitCode : PTO_I32Enum<"SplitCode",
    "split code: 0 none, 1 up/down, 2 left/right, 3 up/down odd, "
    "4 left/right odd", [
  I32EnumAttrCase<"None", 0, "none">,
  I32EnumAttrCase<"UpDown", 1, "up_down">,
  I32EnumAttrCase<"LeftRight", 2, "left_right">,
  I32EnumAttrCase<"UpDownOdd", 3, "up_down_odd">,
  I32EnumAttrCase<"LeftRightOdd", 4, "left_right_odd">
]> {
  let genSpecializedAttr = 0;
}

def PTO_PipeDirection : PTO_I32Enum<"PipeDirection",
                                    "direction(s) a cross-core pipe carries", [
  I32EnumAttrCase<"ToAiv", 1, "to_aiv">,
  I32EnumAttrCase<"ToAic", 2, "to_aic">,
  I32EnumAttrCase<"Both", 3, "both">
]>;

//===----------------------------------------------------------------------===//
// Function kinds (a dialect attribute on func.func).
//===----------------------------------------------------------------------===//

def PTO_FunctionKindEnum : PTO_I32Enum<"FunctionKind", "kind of a function", [
  I32EnumAttrCase<"Orchestration", 0, "orchestration">,
  I32EnumAttrCase<"InCore", 1, "incore">,
  I32EnumAttrCase<"Group", 2, "group">,
  I32EnumAttrCase<"AIC", 3, "aic">,
  I32EnumAttrCase<"AIV", 4, "aiv">
]> {
  let genSpecializedAttr = 0;
}

def PTO_FunctionKindAttr : EnumAttr<PTO_Dialect, PTO_FunctionKindEnum, "kind"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif // TILEKIT_DIALECT_PTO_IR_PTOATTRS_TD
