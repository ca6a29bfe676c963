//===- Passes.h - AscendC passes --------------------------------*- C++ -*-===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_PASSES_H
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_PASSES_H

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Machine/Machine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace tilekit::ascendc {

#define GEN_PASS_DECL
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"

/// Registers the passes that exist only for tests
/// (test-ascendc-plant-bug).
void registerAscendCTestPasses();

/// The target architectures the pass pipelines know.
enum class Arch { C220, C310 };
/// Its name in ascendc.arch marks and options: "c220", "c310".
llvm::StringRef getArchName(Arch arch);
/// The architecture `name` ("c220" or "c310") names, if any.
std::optional<Arch> parseArchName(llvm::StringRef name);

/// Adds the AscendC passes in the order `arch` needs them; `debug` keeps
/// printf/dump_tensor/assert (and sets up the dump area), `lowerToL0`
/// rewrites simple-level vector ops to the low level. With `stopAfter` (a
/// pass argument, "ascendc-fill-asc-operands"), the passes after that one
/// are left out; returns false when the pipeline has no such pass. The
/// capacity check holds each buffer to `capacities` (bytes by
/// machine::Buffer, a machine config's), or to the machine description's.
/// A launch of independent work items runs on `cores` blocks (0: the
/// architecture's AI cores).
bool buildAscendCPipeline(
    mlir::OpPassManager &pm, Arch arch, bool debug, bool lowerToL0,
    llvm::StringRef stopAfter = "",
    const std::array<int64_t, machine::kNumBuffers> *capacities = nullptr,
    unsigned cores = 0);

/// The typed patterns of -ascendc-lower-to-l0: each simple-level (L2)
/// vector op to its low-level (L0) form. They apply to ops whose count the
/// L0 form can express.
void populateLowerToL0Patterns(mlir::RewritePatternSet &patterns);

/// Registers `ascendc-c220-pipeline` and `ascendc-c310-pipeline`.
void registerAscendCPipelines();

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_PASSES_H
