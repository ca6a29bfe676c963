//===- PTOFunctionKinds.cpp - Function kinds and op placement -------------===//
//
// Verifies the `pto.*` attributes on functions (kind, group split, dual
// dispatch, group pairing) and where ops may be placed given the kind of the
// function holding them.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tilekit::pto;
namespace machine = tilekit::machine;

std::optional<FunctionKind> tilekit::pto::getFunctionKind(Operation *func) {
  if (auto kind =
          func->getAttrOfType<FunctionKindAttr>(PTODialect::kKindAttrName))
    return kind.getValue();
  return std::nullopt;
}

std::optional<FunctionKind>
tilekit::pto::getEnclosingFunctionKind(Operation *op) {
  if (auto func = op->getParentOfType<FunctionOpInterface>())
    return getFunctionKind(func);
  return std::nullopt;
}

LogicalResult tilekit::pto::verifyPlacement(Operation *op,
                                            ArrayRef<FunctionKind> allowed,
                                            StringRef what) {
  std::optional<FunctionKind> kind = getEnclosingFunctionKind(op);
  if (!kind || llvm::is_contained(allowed, *kind))
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << "is a " << what
                            << " and cannot run in a function of kind '"
                            << stringifyFunctionKind(*kind) << "' (allowed: ";
  llvm::interleaveComma(allowed, diag, [&](FunctionKind allowedKind) {
    diag << stringifyFunctionKind(allowedKind);
  });
  return diag << ")";
}

LogicalResult tilekit::pto::verifyReachableResults(Operation *op) {
  std::optional<FunctionKind> kind = getEnclosingFunctionKind(op);
  if (kind != FunctionKind::AIC && kind != FunctionKind::AIV)
    return success();
  machine::Core core =
      kind == FunctionKind::AIC ? machine::Core::Cube : machine::Core::Vector;
  for (Value result : op->getResults()) {
    auto tile = dyn_cast<TileType>(result.getType());
    if (!tile)
      continue;
    machine::Buffer buffer = getBuffer(tile.getMemorySpace());
    if (machine::getOwner(buffer) == core)
      continue;
    return op->emitOpError()
           << "makes a '" << stringifyMemorySpace(tile.getMemorySpace())
           << "' tile (" << machine::getName(buffer) << "), which the "
           << (core == machine::Core::Cube ? "cube" : "vector")
           << " core running this " << stringifyFunctionKind(*kind)
           << " function cannot reach";
  }
  return success();
}

/// The function a group pairs with for `role` (aic or aiv): the one its
/// `pto.aic` / `pto.aiv` attribute names, or else `<group>_aic` /
/// `<group>_aiv`.
static FunctionOpInterface findGroupMember(FunctionOpInterface group,
                                           FunctionKind role,
                                           std::string &lookedFor) {
  StringRef attrName = role == FunctionKind::AIC ? PTODialect::kAicAttrName
                                                 : PTODialect::kAivAttrName;
  StringAttr name;
  if (auto ref = group->getAttrOfType<FlatSymbolRefAttr>(attrName))
    name = ref.getAttr();
  else
    name = StringAttr::get(group->getContext(),
                           group.getName() + "_" + stringifyFunctionKind(role));
  lookedFor = name.str();
  Operation *symbolTable = SymbolTable::getNearestSymbolTable(group);
  if (!symbolTable)
    return {};
  return dyn_cast_or_null<FunctionOpInterface>(
      SymbolTable::lookupSymbolIn(symbolTable, name));
}

static int64_t getSplit(Operation *func) {
  if (auto split = func->getAttrOfType<IntegerAttr>(PTODialect::kSplitAttrName))
    return split.getInt();
  return 0;
}

static bool hasDualAivDispatch(Operation *func) {
  Attribute attr = func->getAttr(PTODialect::kDualAivDispatchAttrName);
  if (auto flag = dyn_cast_or_null<BoolAttr>(attr))
    return flag.getValue();
  return isa_and_nonnull<UnitAttr>(attr);
}

std::optional<GroupInfo> tilekit::pto::resolveGroup(Operation *op) {
  auto group = dyn_cast<FunctionOpInterface>(op);
  if (!group || getFunctionKind(op) != FunctionKind::Group)
    return std::nullopt;
  std::string ignored;
  FunctionOpInterface aic = findGroupMember(group, FunctionKind::AIC, ignored);
  FunctionOpInterface aiv = findGroupMember(group, FunctionKind::AIV, ignored);
  if (!aic || !aiv || getFunctionKind(aic) != FunctionKind::AIC ||
      getFunctionKind(aiv) != FunctionKind::AIV)
    return std::nullopt;
  GroupInfo info;
  info.aic = aic;
  info.aiv = aiv;
  info.split = getSplit(group);
  if (info.split == 0)
    info.split = getSplit(aiv);
  info.dualAivDispatch = hasDualAivDispatch(group) || hasDualAivDispatch(aiv);
  return info;
}

static LogicalResult verifyGroup(FunctionOpInterface group) {
  for (FunctionKind role : {FunctionKind::AIC, FunctionKind::AIV}) {
    std::string lookedFor;
    FunctionOpInterface member = findGroupMember(group, role, lookedFor);
    StringRef roleName = stringifyFunctionKind(role);
    if (!member)
      return group->emitOpError()
             << "is a group but its " << roleName << " function '@" << lookedFor
             << "' does not exist (name it with 'pto." << roleName
             << "' or define @" << group.getName() << "_" << roleName << ")";
    std::optional<FunctionKind> memberKind = getFunctionKind(member);
    if (memberKind != role)
      return group->emitOpError()
             << "pairs '@" << lookedFor << "' as its " << roleName
             << " function, but that function is not of kind '" << roleName
             << "'";
    if (member.getArgumentTypes() != group.getArgumentTypes())
      return group->emitOpError()
             << "passes its arguments to '@" << lookedFor
             << "', so their argument types must be the same";
    // The group returns what vector lane 0 returns, and nothing else may.
    if (role == FunctionKind::AIC && !member.getResultTypes().empty())
      return group->emitOpError()
             << "returns what its vector lane 0 returns, so its aic function '@"
             << lookedFor << "' must return nothing";
    if (role == FunctionKind::AIV &&
        member.getResultTypes() != group.getResultTypes())
      return group->emitOpError()
             << "returns what its aiv function '@" << lookedFor
             << "' returns, so their result types must be the same";
    // The aiv function's split is the fallback for a group without one; two
    // different non-zero splits cannot both describe the lanes.
    if (role == FunctionKind::AIV && getSplit(group) != 0 &&
        getSplit(member) != 0 && getSplit(group) != getSplit(member))
      return group->emitOpError()
             << "has split " << getSplit(group) << " but its aiv function '@"
             << lookedFor << "' has split " << getSplit(member);
  }
  // Both lanes of a two-lane group run the aiv function, so lane 1 would
  // return a value too and break the return contract on every run.
  std::optional<GroupInfo> info = resolveGroup(group);
  if (info && info->numLanes() == 2 && !group.getResultTypes().empty())
    return group->emitOpError()
           << "runs its aiv function '@"
           << cast<FunctionOpInterface>(info->aiv).getName()
           << "' on two lanes (split " << info->split
           << (info->split == 0 ? ", dual dispatch" : "")
           << "), so lane 1 would return a value as well; a group returns "
              "only lane 0's results: return nothing and store the results "
              "to a GM tensor argument instead";
  // Calling a group runs its members; a body would never run.
  Region &body = group.getFunctionBody();
  if (!group.isExternal() &&
      (!body.hasOneBlock() || !body.front().without_terminator().empty()))
    return group->emitOpError()
           << "is a group, whose call runs its aic and aiv functions; its "
              "body holds only the return";
  return success();
}

/// Split codes of the cross-core pipes (pto-isa's TileSplitAxis).
LogicalResult
tilekit::pto::verifySplitCode(function_ref<InFlightDiagnostic()> emitError,
                              int64_t split, bool allowOdd) {
  std::optional<machine::SplitCode> code = machine::getSplitCode(split);
  if (!code) {
    InFlightDiagnostic diag = emitError();
    diag << "split code " << split << " is invalid (expected";
    for (unsigned c = 0; c < machine::kNumSplitCodes; ++c)
      diag << (c ? ", " : " ") << c << " "
           << machine::getName(static_cast<machine::SplitCode>(c));
    return diag << ")";
  }
  if (!allowOdd && machine::isOddSplit(*code))
    return emitError() << "split code " << split
                       << " is odd, but there is no odd vector-to-cube "
                          "transport (expected 0, 1 or 2)";
  return success();
}

/// Cube and vector functions run only as members of a group, and groups
/// are launched from orchestration.
static LogicalResult verifyCalls(FunctionOpInterface caller,
                                 FunctionKind callerKind) {
  WalkResult result = caller.walk([&](CallOpInterface call) {
    auto callee = dyn_cast_or_null<FunctionOpInterface>(call.resolveCallable());
    if (!callee)
      return WalkResult::advance();
    std::optional<FunctionKind> calleeKind = getFunctionKind(callee);
    if (calleeKind == FunctionKind::AIC || calleeKind == FunctionKind::AIV) {
      call->emitOpError() << "calls '@" << callee.getName()
                          << "', a function of kind '"
                          << stringifyFunctionKind(*calleeKind)
                          << "'; such functions run only through their group";
      return WalkResult::interrupt();
    }
    if (calleeKind == FunctionKind::Group &&
        callerKind != FunctionKind::Orchestration) {
      call->emitOpError() << "launches the group '@" << callee.getName()
                          << "' from a function of kind '"
                          << stringifyFunctionKind(callerKind)
                          << "'; groups are launched from orchestration";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult PTODialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kBufferSetAttrName) {
    auto set = dyn_cast<IntegerAttr>(attr.getValue());
    if (!set || (set.getInt() != 0 && set.getInt() != 1))
      return op->emitOpError()
             << "has '" << name << "', which names a buffer set: 0 or 1";
    return success();
  }
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    return op->emitError() << "'" << name
                           << "' is a function attribute; it cannot be "
                              "placed on '"
                           << op->getName() << "'";
  std::optional<FunctionKind> kind = getFunctionKind(op);
  auto requireKind = [&](ArrayRef<FunctionKind> kinds) -> LogicalResult {
    if (kind && llvm::is_contained(kinds, *kind))
      return success();
    InFlightDiagnostic diag = op->emitOpError()
                              << "has '" << name
                              << "', which only a function of kind ";
    llvm::interleave(
        kinds, diag,
        [&](FunctionKind k) { diag << "'" << stringifyFunctionKind(k) << "'"; },
        " or ");
    return diag << " may carry";
  };

  if (name == kKindAttrName) {
    if (!isa<FunctionKindAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << name
             << "' must be a function kind such as #pto.kind<incore>";
    if (*kind == FunctionKind::Group)
      return verifyGroup(func);
    return verifyCalls(func, *kind);
  }
  if (name == kSplitAttrName) {
    auto split = dyn_cast<IntegerAttr>(attr.getValue());
    if (!split)
      return op->emitOpError() << "'" << name << "' must be an integer";
    if (failed(verifySplitCode([&] { return op->emitOpError(); },
                               split.getInt(), /*allowOdd=*/true)))
      return failure();
    return requireKind({FunctionKind::Group, FunctionKind::AIV});
  }
  if (name == kDualAivDispatchAttrName) {
    if (!isa<UnitAttr, BoolAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name << "' must be a unit or bool";
    return requireKind({FunctionKind::Group, FunctionKind::AIV});
  }
  if (name == kAicAttrName || name == kAivAttrName) {
    if (!isa<FlatSymbolRefAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name << "' must name a function";
    return requireKind({FunctionKind::Group});
  }
  if (name == kIndependentItemsAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name << "' must be a unit attribute";
    return requireKind({FunctionKind::Orchestration});
  }
  if (name == kItemPhasesAttrName) {
    auto phases = dyn_cast<ArrayAttr>(attr.getValue());
    bool wellFormed = phases && llvm::all_of(phases, [](Attribute phase) {
                        auto fields = dyn_cast<DictionaryAttr>(phase);
                        auto calls = fields ? fields.getAs<IntegerAttr>("calls")
                                            : IntegerAttr();
                        return calls && calls.getInt() > 0;
                      });
    if (!wellFormed)
      return op->emitOpError()
             << "'" << name
             << "' must be a list of phases, each {calls = N (N > 0)} with "
                "an optional `independent`";
    return requireKind({FunctionKind::Orchestration});
  }
  return op->emitOpError() << "has unknown PTO attribute '" << name
                           << "' (expected pto.kind, pto.split, "
                              "pto.dual_aiv_dispatch, pto.aic, pto.aiv, "
                              "pto.independent_items or pto.item_phases)";
}
