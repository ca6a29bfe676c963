//===- PTODialect.td - The PTO tile-program dialect --------*- tablegen -*-===//
//
// The PTO dialect models tile programs for Ascend-style AI cores: GM tensors,
// on-chip tiles with runtime valid shapes, cube/vector tile ops, cross-core
// pipes between the cube core (AIC) and its vector lanes (AIV), and the system
// ops that synchronize pipes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_PTO_IR_PTODIALECT_TD
#define TILEKIT_DIALECT_PTO_IR_PTODIALECT_TD

include "mlir/IR/OpBase.td"

def PTO_Dialect : Dialect {
  let name = "pto";
  let cppNamespace = "::tilekit::pto";
  let summary = "Tile programs for Ascend-style AI cores";
  let description = [{
    A PTO program is a module of `func.func` operations, each tagged with a
    function kind (`pto.kind`):

    * `orchestration` functions work on GM tensors with `pto.tensor.*` ops and
      call in-core functions;
    * `incore`, `aic` (cube core) and `aiv` (vector core) functions load GM
      tensors into on-chip tiles, compute with `pto.tile.*` ops and store the
      valid region of tiles back;
    * `group` functions pair one `aic` function with an `aiv` function that
      runs on one or two vector lanes; the two exchange tiles through
      cross-core pipes (`pto.tile.tpush_*` / `pto.tile.tpop_*`).

    Control flow is upstream `scf` and scalar arithmetic is upstream `arith`.
    Every tile carries a runtime *valid shape* (the region that holds data);
    ops that change or read it take it as `index` operands.

    One attribute may sit on ops other than functions: `pto.buffer_set = 0`
    or `1` on a tile load of a double-buffered loop (`pto-plan-memory`'s
    `double-buffer` puts it there). Tiles of different buffer sets never
    share storage, in the memory plan or in the compiled kernel, so one
    half of the loop loads while the other half's tiles are read.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Attribute names the dialect owns on `func.func`.
    static constexpr llvm::StringLiteral kKindAttrName = "pto.kind";
    static constexpr llvm::StringLiteral kSplitAttrName = "pto.split";
    static constexpr llvm::StringLiteral kDualAivDispatchAttrName =
        "pto.dual_aiv_dispatch";
    static constexpr llvm::StringLiteral kAicAttrName = "pto.aic";
    static constexpr llvm::StringLiteral kAivAttrName = "pto.aiv";
    /// On an orchestration: its work items provably touch disjoint GM
    /// elements wherever one of them writes (pto-prove-independent-items).
    static constexpr llvm::StringLiteral kIndependentItemsAttrName =
        "pto.independent_items";
    /// On an orchestration whose items are not all independent: its phases
    /// (pto-prove-independent-items), each `{calls = N, independent}` for
    /// the next N call sites in program order, `independent` when the
    /// phase's items never meet in GM.
    static constexpr llvm::StringLiteral kItemPhasesAttrName =
        "pto.item_phases";
    /// On an op of a double-buffered loop (pto-plan-memory's
    /// `double-buffer`): which of the loop's two buffer sets (0 or 1) the
    /// tiles it defines live in. Tiles of different sets are live together
    /// and never share storage, in the plan or in the compiled kernel.
    static constexpr llvm::StringLiteral kBufferSetAttrName =
        "pto.buffer_set";

    void registerTypes();
    void registerAttributes();
  }];
}

class PTO_Op<string mnemonic, list<Trait> traits = []>
    : Op<PTO_Dialect, mnemonic, traits>;

#endif // TILEKIT_DIALECT_PTO_IR_PTODIALECT_TD
