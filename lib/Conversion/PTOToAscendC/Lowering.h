//===- Lowering.h - What the PTO to AscendC patterns share ------*- C++ -*-===//
//
// Internal to pto-merge-groups and convert-pto-to-ascendc: the type
// converter, the valid shapes the patterns follow from tile to tile, the
// helpers that create local tensors and index values, what the group merge
// records on each transfer, and the pattern groups (transfers, vector ops,
// the cube, cross-core transfers), one file each.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_CONVERSION_PTOTOASCENDC_LOWERING_H
#define TILEKIT_LIB_CONVERSION_PTOTOASCENDC_LOWERING_H

#include "tilekit/Conversion/PTOToAscendC.h"
#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Dialect/PTO/IR/PTOOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tilekit::lowering {

/// `!pto.tensor` -> `!ascendc.global_tensor`, tiles of every space ->
/// `!ascendc.local_tensor` of the same shape and element type (the
/// position is the placeholder op's, chosen per tile).
class PTOToAscendCTypes : public mlir::TypeConverter {
public:
  PTOToAscendCTypes();
};

/// The region of a tile that holds data, where it is not the whole tile:
/// `rows` leading rows, `cols` leading columns (null: all of them; columns
/// are partial in 2-d tiles only). The vector ops compute whole tensors;
/// what lies outside the region is never stored, and the ops that would
/// read it (row folds) reject a tile with partial columns.
struct ValidShape {
  mlir::Value rows, cols;
};

/// The valid shapes of tiles, keyed by the PTO tile value: a load, create,
/// full or set_validshape gives one, the ops that keep an operand's valid
/// shape pass it on, and a store copies that region only. The patterns run
/// in program order, so a tile's shape is known before its uses'.
struct ValidShapes {
  llvm::DenseMap<mlir::Value, ValidShape> shapes;
  /// Tiles whose valid shape is known only at run time: popped from a
  /// pipe that several pushes feed, and the tiles computed from them until
  /// a set_validshape.
  llvm::DenseSet<mlir::Value> unknown;
  /// Per tile a scf.for returns: the tile it starts from and the one each
  /// trip yields (recordLoopCarriedTiles, before the conversion).
  llvm::DenseMap<mlir::Value, std::pair<mlir::Value, mlir::Value>> carried;
  /// The valid shape of `tile` when it can be followed: recorded, the
  /// whole box of a PTO op's tile recorded as none, or a loop's result
  /// whose initial and yielded tiles have the same one.
  std::optional<ValidShape> follow(mlir::Value tile) const;
  /// Per load that may reach past its tensor's edge: a bit per dimension
  /// whose extent the lowering clamps (findLoadsPastEdge).
  llvm::DenseMap<mlir::Operation *, unsigned> loadsPastEdge;
  ValidShape lookup(mlir::Value tile) const { return shapes.lookup(tile); }
  /// The valid shape of `tile`, which `user` needs: an error at `user`
  /// when it is unknown.
  mlir::FailureOr<ValidShape> require(mlir::Operation *user,
                                      mlir::Value tile) const;
  /// Records the valid shape that `extents` (none: the whole tile) give
  /// the tile `op` produces: the extents that are not the tile's full
  /// ones. Only 2-d tiles may be partial in columns (an error at `op`
  /// otherwise).
  mlir::LogicalResult record(mlir::Operation *op, mlir::ValueRange extents);
  /// `result` has the valid shape of `from` (when it is known).
  void inherit(mlir::Value result, mlir::Value from) {
    // A copy first: inserting `result` may grow the map and move `from`'s.
    auto it = shapes.find(from);
    if (it != shapes.end()) {
      ValidShape shape = it->second;
      shapes[result] = shape;
    }
    if (unknown.contains(from))
      unknown.insert(result);
  }
};

/// A pattern that reads or records the valid shapes of tiles.
template <typename From> struct TilePattern : mlir::OpConversionPattern<From> {
  TilePattern(const mlir::TypeConverter &types, mlir::MLIRContext *context,
              ValidShapes &valid)
      : mlir::OpConversionPattern<From>(types, context), valid(valid) {}
  ValidShapes &valid;
};

/// A fresh placeholder local tensor for the tile `result` at `position`.
mlir::Value createLocal(mlir::OpBuilder &builder, mlir::Location loc,
                        const mlir::TypeConverter &types, mlir::Value result,
                        ascendc::Position position);

/// The position a tile of `space` takes; `tile` (the PTO value) decides
/// for `mat` tiles: A1 feeding a left operand, B1 a right one, C1 the bias
/// table. Vector tiles are VECCALC unless the caller knows better.
ascendc::Position positionFor(mlir::Value tile);

/// `given`, or the constant `full` when it is null.
mlir::Value extentOr(mlir::OpBuilder &builder, mlir::Location loc,
                     mlir::Value given, int64_t full);

/// The vector lane pto-merge-groups cloned an op for (an integer), which
/// the lowering gives the local tensors made for it (ascendc.lane).
inline constexpr llvm::StringLiteral kLaneAttr = "tilekit.lane";

/// Gives the placeholder `tensor` the lane of `from`: a PTO op cloned for
/// a lane, or a local tensor's defining op that has one.
void markLane(mlir::Value tensor, mlir::Operation *from);

/// The record of a merged transfer (TransferRecord), and the attribute
/// numbering the tensors of a merged group's slots, which records name.
inline constexpr llvm::StringLiteral kTransferAttr = "tilekit.transfer";
inline constexpr llvm::StringLiteral kWorkspaceAttr = "tilekit.workspace";

/// What pto-merge-groups records on each transfer it places (the
/// `tilekit.transfer` dictionary), for the lowering to read.
struct TransferRecord {
  /// The `tilekit.workspace` id of the slot's tensor in the function.
  int64_t workspace = 0;
  /// The lane (of `lanes`) the transfer runs for.
  int64_t lane = 0, lanes = 1;
  /// Along the split axis, where lane 1's part of the box starts.
  int64_t cut = 0;
  /// A push's id in its function (-1 for a pop).
  int64_t id = -1;
  /// A pop's, per lane: the id of the one push that feeds it (-1 when
  /// several may, or the pop does not take from the lane).
  llvm::SmallVector<int64_t, 2> partners;

  mlir::DictionaryAttr toAttr(mlir::MLIRContext *context) const;
  /// The record `op` carries; an error at `op` when it is malformed.
  static mlir::FailureOr<TransferRecord> of(mlir::Operation *op);
};

/// Where a cross-core transfer of a merged group moves its tile: the
/// workspace of its pipe direction, and the lane (of `lanes`) it runs for.
struct TransferSite {
  mlir::Value workspace;
  unsigned lane = 0, lanes = 1;
  /// Along the split axis, where lane 1's part of the box starts (lane 0
  /// holds the cells before it): the box half, or the push's lane_stride.
  int64_t cut = 0;
  /// The first cell and the size of this lane's part of a box `extent`
  /// long along the split axis, held in a lane tile `tileExtent` long (a
  /// lane_stride may leave lane 1 more of the box than its tile holds; the
  /// odd codes' rule keeps its valid cells within it).
  std::pair<int64_t, int64_t> laneRange(int64_t extent,
                                        int64_t tileExtent) const {
    return lane == 0 ? std::make_pair(int64_t(0), cut)
                     : std::make_pair(cut, std::min(extent - cut, tileExtent));
  }
  /// For a pop, per lane: the one push that feeds it (null when several
  /// pushes do, or for a lane the pop does not take from).
  llvm::SmallVector<mlir::Operation *, 2> partners;
};
struct Transfers {
  llvm::DenseMap<mlir::Operation *, TransferSite> sites;
  /// The valid shape of each lowered push's tile (none: unknown), keyed by
  /// the push, for the pops it feeds.
  llvm::DenseMap<mlir::Operation *, std::optional<ValidShape>> pushed;
};

/// CrossCore.cpp: the sites of the merged transfers of `module`, read from
/// their records, which (with the workspaces' ids) it drops.
mlir::LogicalResult readTransferSites(mlir::ModuleOp module,
                                      Transfers &transfers);

/// CrossCore.cpp: what the group merge and the transfer patterns ask of a
/// transfer.
bool isTransfer(mlir::Operation *op);
bool isPush(mlir::Operation *op);
/// The pipe and direction of a transfer (true: toward the vector core).
std::pair<int64_t, bool> channelOf(mlir::Operation *op);
/// A transfer's split code.
int64_t splitOf(mlir::Operation *op);
/// The axis a transfer's split cuts its tile along (-1: none).
int splitAxisOf(mlir::Operation *op);
/// The tile a transfer moves.
pto::TileType tileOf(mlir::Operation *op);

/// Transfers.cpp: records the tiles each scf.for of `module` carries, so
/// that stores can follow their valid shapes (ValidShapes::follow).
void recordLoopCarriedTiles(mlir::ModuleOp module, ValidShapes &valid);

/// Transfers.cpp: records in `valid` the loads of `module` that an
/// integer range analysis cannot keep inside their tensors (offset plus
/// extent within the tensor's static extent): only those are clamped.
void findLoadsPastEdge(mlir::ModuleOp module, ValidShapes &valid);

/// CountedWhile.cpp: lifts each scf.while under `root` that `which` picks
/// and that counts an index to a bound to the scf.for it is (innermost
/// first); the rest stay as they are.
void liftCountedWhileLoops(mlir::Operation *root,
                           llvm::function_ref<bool(mlir::scf::WhileOp)> which);

/// Aliases.cpp: fails, with an error at one tile and a note at the other,
/// when two tiles at explicit addresses of one of `funcs` share bytes while
/// both are live (the lowering cannot keep such aliasing).
mlir::LogicalResult
checkNoLiveAliases(llvm::ArrayRef<mlir::func::FuncOp> funcs);

/// VectorOps.cpp: `scalar` as an `element`, for Ascend C's scalar
/// arguments (`const T &`, the tensor's T): a float rounds to nearest (the
/// executor converts scalars so), an integer wraps; a constant folds.
/// Other kinds (a float for an integer tile) stay as they are.
mlir::Value asElement(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value scalar, mlir::Type element);

/// VectorOps.cpp: a fresh VECCALC tensor of `shape` and `element`, of the
/// lane of `laneOf` (a temporary of a lowering that takes several
/// instructions).
mlir::Value freshTensor(mlir::OpBuilder &builder, mlir::Location loc,
                        llvm::ArrayRef<int64_t> shape, mlir::Type element,
                        mlir::Operation *laneOf);

/// VectorOps.cpp: `tensor` from element `offset` on, `count` elements long
/// (a 1-d view; the tensor itself when that is all of it).
mlir::Value viewOf(mlir::OpBuilder &builder, mlir::Location loc,
                   mlir::Value tensor, int64_t offset, int64_t count);

/// VectorOps.cpp: whether `value` has a use after `op` (or one in another
/// block, whose order to it is not plain): an op that updates its target
/// in place refuses a target still needed after it.
bool usedAfter(mlir::Value value, mlir::Operation *op);

/// VectorOps.cpp: a fresh VECCALC tensor of `like`'s type, of the lane of
/// `laneOf` (a temporary of a lowering that takes several instructions).
mlir::Value freshLike(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value like, mlir::Operation *laneOf);

/// VectorOps.cpp: a fresh VECCALC tensor of `like`'s type (and the lane of
/// `laneOf`) that duplicate_l2 fills with `scalar` as its element type: the
/// tensor operand an instruction without a scalar form takes.
mlir::Value filledLike(mlir::OpBuilder &builder, mlir::Location loc,
                       mlir::Value like, mlir::Value scalar,
                       mlir::Operation *laneOf);

/// VectorOps.cpp: the count an integer division of `dividend` (a tile of
/// `op`) divides: its valid elements only, since a padding lane may hold a
/// zero divisor, which the machine's integer division faults on (the
/// executor divides valid elements only). Valid rows are a count of whole
/// rows; valid columns, for a one-row tile. Null: the whole tensor (floats,
/// whole tiles). An error at `op` for partial columns over several rows.
mlir::FailureOr<mlir::Value> integerDivisionCount(mlir::Operation *op,
                                                  mlir::Value dividend,
                                                  const ValidShapes &valid,
                                                  mlir::OpBuilder &builder);

/// VectorOps.cpp: the value `pad` names in `type`: zero or its finite
/// minimum or maximum.
mlir::TypedAttr padAttr(mlir::Type type, pto::PadValue pad);

/// PTOToAscendC.cpp: every pattern of convert-pto-to-ascendc.
void populatePTOToAscendCPatterns(PTOToAscendCTypes &types,
                                  mlir::RewritePatternSet &patterns,
                                  ValidShapes &valid, Transfers &transfers);

/// Legality.cpp: the ops a pattern of `patterns` takes (its root kinds):
/// the one list of what compiles.
llvm::DenseSet<mlir::OperationName> takenOps(mlir::RewritePatternSet &patterns);

/// Legality.cpp: an error at each PTO op under `root` that no pattern
/// takes, with how to write it instead, and at each scf.while that carries
/// a tile; every such op, not the first only (each added to `refused`
/// when given).
mlir::LogicalResult
checkEveryOpLowers(mlir::Operation *root,
                   const llvm::DenseSet<mlir::OperationName> &taken,
                   llvm::DenseSet<mlir::Operation *> *refused = nullptr);

/// IndexOps.cpp: a loop nest on the scalar unit over `rows` x `cols` (run
/// time extents) of a row-major box `pitch` elements wide: `body` gets the
/// row, the column and the element's offset, built inside the nest; the
/// builder is left after it.
void forEachElement(
    mlir::OpBuilder &builder, mlir::Location loc, mlir::Value rows,
    mlir::Value cols, int64_t pitch,
    llvm::function_ref<void(mlir::Value row, mlir::Value col, mlir::Value at)>
        body);

void populateCrossCorePatterns(PTOToAscendCTypes &types,
                               mlir::RewritePatternSet &patterns,
                               ValidShapes &valid, Transfers &transfers);

void populateTransferPatterns(PTOToAscendCTypes &types,
                              mlir::RewritePatternSet &patterns,
                              ValidShapes &valid);
void populateVectorPatterns(PTOToAscendCTypes &types,
                            mlir::RewritePatternSet &patterns,
                            ValidShapes &valid);
void populateCompositePatterns(PTOToAscendCTypes &types,
                               mlir::RewritePatternSet &patterns,
                               ValidShapes &valid);
void populateIndexPatterns(PTOToAscendCTypes &types,
                           mlir::RewritePatternSet &patterns,
                           ValidShapes &valid);
void populateRegionPatterns(PTOToAscendCTypes &types,
                            mlir::RewritePatternSet &patterns,
                            ValidShapes &valid);
void populateCubePatterns(PTOToAscendCTypes &types,
                          mlir::RewritePatternSet &patterns,
                          ValidShapes &valid);

} // namespace tilekit::lowering

#endif // TILEKIT_LIB_CONVERSION_PTOTOASCENDC_LOWERING_H
