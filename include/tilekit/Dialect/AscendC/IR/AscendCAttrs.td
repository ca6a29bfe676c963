//===- AscendCAttrs.td - AscendC enums ----------------------*- tablegen -*-===//

#ifndef TILEKIT_DIALECT_ASCENDC_IR_ASCENDCATTRS_TD
#define TILEKIT_DIALECT_ASCENDC_IR_ASCENDCATTRS_TD

include "tilekit/Dialect/AscendC/IR/AscendCDialect.td"
include "mlir/IR/EnumAttr.td"

class AscendC_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::tilekit::ascendc";
}

def AscendC_Position : AscendC_I32Enum<"Position",
    "where a local tensor lives in the core's buffers", [
  I32EnumAttrCase<"A1", 0, "a1">,           // L1, cube A operand staging
  I32EnumAttrCase<"B1", 1, "b1">,           // L1, cube B operand staging
  I32EnumAttrCase<"C1", 2, "c1">,           // L1, bias staging
  I32EnumAttrCase<"A2", 3, "a2">,           // L0A
  I32EnumAttrCase<"B2", 4, "b2">,           // L0B
  I32EnumAttrCase<"C2", 5, "c2">,           // bias table
  I32EnumAttrCase<"CO1", 6, "co1">,         // L0C, the accumulator
  I32EnumAttrCase<"CO2", 7, "co2">,         // fixpipe output in UB
  I32EnumAttrCase<"VecIn", 8, "vecin">,     // UB, vector input queue
  I32EnumAttrCase<"VecOut", 9, "vecout">,   // UB, vector output queue
  I32EnumAttrCase<"VecCalc", 10, "veccalc"> // UB, vector scratch
]>;

// Numbered as PTO's Pipe and the trace's (lib/Registration/EnumAgreement.cpp).
def AscendC_Pipe : AscendC_I32Enum<"Pipe", "an instruction pipe of a core", [
  I32EnumAttrCase<"S", 0, "s">,       // scalar
  I32EnumAttrCase<"V", 1, "v">,       // vector
  I32EnumAttrCase<"M", 2, "m">,       // cube
  I32EnumAttrCase<"MTE1", 3, "mte1">, // L1 -> L0A/L0B/bias
  I32EnumAttrCase<"MTE2", 4, "mte2">, // GM -> UB/L1
  I32EnumAttrCase<"MTE3", 5, "mte3">, // UB -> GM/L1
  I32EnumAttrCase<"FIX", 6, "fix">,   // L0C -> UB/GM (fixpipe)
  I32EnumAttrCase<"All", 7, "all">
]>;

def AscendC_CmpMode : AscendC_I32Enum<"CmpMode", "a vector comparison", [
  I32EnumAttrCase<"LT", 0, "lt">, I32EnumAttrCase<"GT", 1, "gt">,
  I32EnumAttrCase<"EQ", 2, "eq">, I32EnumAttrCase<"LE", 3, "le">,
  I32EnumAttrCase<"GE", 4, "ge">, I32EnumAttrCase<"NE", 5, "ne">
]>;

// Numbered as PTO's RoundMode (lib/Registration/EnumAgreement.cpp checks).
def AscendC_RoundMode : AscendC_I32Enum<"RoundMode", "rounding of a cast", [
  I32EnumAttrCase<"None", 0, "none">, I32EnumAttrCase<"Rint", 1, "rint">,
  I32EnumAttrCase<"Round", 2, "round">, I32EnumAttrCase<"Floor", 3, "floor">,
  I32EnumAttrCase<"Ceil", 4, "ceil">, I32EnumAttrCase<"Trunc", 5, "trunc">,
  I32EnumAttrCase<"Odd", 6, "odd">
]>;

#endif // TILEKIT_DIALECT_ASCENDC_IR_ASCENDCATTRS_TD
