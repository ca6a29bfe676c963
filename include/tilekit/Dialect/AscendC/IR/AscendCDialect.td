//===- AscendCDialect.td - The AscendC dialect --------------*- tablegen -*-===//
//
// The AscendC dialect sits below PTO, close to the Ascend C programming
// interface: local tensors placed at a buffer position, explicit copies
// between positions, cube and vector instructions at the two API levels, and
// explicit synchronization between pipes and between cores. Memory planning
// and synchronization insertion happen at this level.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_IR_ASCENDCDIALECT_TD
#define TILEKIT_DIALECT_ASCENDC_IR_ASCENDCDIALECT_TD

include "mlir/IR/OpBase.td"

def AscendC_Dialect : Dialect {
  let name = "ascendc";
  let cppNamespace = "::tilekit::ascendc";
  let summary = "Ascend C level kernels: positioned local tensors, copies, "
                "cube and vector instructions, pipe and core synchronization";
  let description = [{
    A local tensor lives at a *position* of the core's buffers (`a1` and
    `b1`/`c1` in L1, `a2` in L0A, `b2` in L0B, `c2` in the bias table, `co1`
    in L0C, `vecin`/`vecout`/`veccalc` in UB). It starts as a placeholder
    (`ascendc.local_tensor_auto`) that memory planning turns into an addressed
    tensor (`ascendc.local_tensor`) carrying its byte address and size.
    Copies take their direction from the positions of their operands; pipes
    are synchronized with flags, barriers and buffer ids, and the cube and
    vector cores of a mixed kernel with cross-core flags.
  }];
  let useDefaultTypePrinterParser = 1;
  // The front end's unrolling attributes come with AscendC kernels.
  let dependentDialects = ["::tilekit::ascendc::AsctileDialect"];
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();

    // The attributes passes hand to each other, declared and verified here
    // (AscendCDialect.cpp says where each may sit and what it holds).
    /// module: "cube", "vector" or "mixed" (promote-cv-block).
    static constexpr ::llvm::StringLiteral kKernelTypeAttrName =
        "ascendc.kernel_type";
    /// module: "c220" or "c310", the target (dispatch-alloc).
    static constexpr ::llvm::StringLiteral kArchAttrName = "ascendc.arch";
    /// module: bool, asks for static allocation (dispatch-alloc).
    static constexpr ::llvm::StringLiteral kStaticAllocAttrName =
        "ascendc.static_alloc";
    /// module: "static", the allocation strategy (dispatch-alloc).
    static constexpr ::llvm::StringLiteral kAllocStrategyAttrName =
        "ascendc.alloc_strategy";
    /// module: bytes needed per buffer (compute-memory-consumption).
    static constexpr ::llvm::StringLiteral kMemoryConsumedAttrName =
        "ascendc.memory_consumed";
    /// function: the next free cross-core flag id (insert-cross-core-sync).
    static constexpr ::llvm::StringLiteral kCrossCoreFlagIdAttrName =
        "ascendc.cross_core_flag_id";
    /// local tensor: its buffer id (insert-bufid-sync).
    static constexpr ::llvm::StringLiteral kBufIdAttrName = "ascendc.buf_id";
    /// op: the buffer ids it gets and releases (insert-bufid-sync).
    static constexpr ::llvm::StringLiteral kBufIdsAttrName = "ascendc.buf_ids";
    /// local tensor: the vector lane (0 or 1) of a split group whose tile
    /// it holds (convert-pto-to-ascendc); ascendc-guard-lanes puts the ops
    /// on it under that lane's sub-block.
    static constexpr ::llvm::StringLiteral kLaneAttrName = "ascendc.lane";
    /// op: its reuse group (compute-reuse-group).
    static constexpr ::llvm::StringLiteral kReuseGroupAttrName =
        "ascendc.reuse_group";
    /// local tensor or cast: [first, last], when the tensor is in use in the
    /// function's op order (reuse-tensor-allocation records it for
    /// reuse-ub-allocation, which removes it).
    static constexpr ::llvm::StringLiteral kLifetimeAttrName =
        "ascendc.lifetime";
    /// loop: unit, a vector-scope / parallel loop (no loop-end bufid flags).
    static constexpr ::llvm::StringLiteral kVecScopeLoopAttrName =
        "ascendc.vec_scope_loop";
    static constexpr ::llvm::StringLiteral kParallelAttrName =
        "ascendc.parallel";
    /// function: unit, host code that launches kernels (the lowering marks
    /// orchestration functions); passes that shape kernels skip it.
    static constexpr ::llvm::StringLiteral kHostAttrName = "ascendc.host";
    /// function: unit, a device function whose pipes may still run when it
    /// returns: its launch kernel orders consecutive items (form-launch's
    /// item overlap), so it ends without draining them.
    static constexpr ::llvm::StringLiteral kOverlappedAttrName =
        "ascendc.overlapped";
    /// function: unit, a kernel that only launch kernels call, once per
    /// work item (form-launch): a device function, not an entry.
    static constexpr ::llvm::StringLiteral kDeviceAttrName = "ascendc.device";
    /// call in a launch kernel: per operand, the launch kernel's argument
    /// it is, -1 for a scalar, or -2 for a region of the launch's
    /// workspace (or a reshape of one), so that the C++ passes the launch's
    /// address (and extents) of that tensor (form-launch).
    static constexpr ::llvm::StringLiteral kLaunchArgsAttrName =
        "ascendc.launch_args";
    /// launch kernel: the workspace bytes each block's work items use (the
    /// largest of the kernels it calls), after the launch's own regions.
    static constexpr ::llvm::StringLiteral kItemWorkspaceAttrName =
        "ascendc.item_workspace";
    /// launch kernel: the host function whose launches it is one of
    /// (form-launch); the launches of one host share one workspace, so
    /// its regions carry data from one launch to the next.
    static constexpr ::llvm::StringLiteral kLaunchedByAttrName =
        "ascendc.launched_by";
    /// function argument: the kernel argument it is ("DumpAddr").
    static constexpr ::llvm::StringLiteral kKernelArgAttrName =
        "ascendc.kernel_arg";
  }];
}

class AscendC_Op<string mnemonic, list<Trait> traits = []>
    : Op<AscendC_Dialect, mnemonic, traits>;

#endif // TILEKIT_DIALECT_ASCENDC_IR_ASCENDCDIALECT_TD
