//===- ProducerRules.h - A producer's per-op rules, as patterns -*- C++ -*-===//
//
// Each op a compiled trace producer traces has a rule: which ops it takes,
// and the runtime call (TraceProducer.h, AscendCTraceProducer.h) it
// becomes. A rule is a conversion pattern; a producer's rules are a
// RuleSet, and what the producer supports is asked of that set before it
// lowers anything (RuleSet::takes), so that no list of ops is kept beside
// the rules. Shared by PTOToTraceProducer.cpp and AscendCToTraceProducer.cpp;
// internal to the conversion library.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_CONVERSION_PRODUCERRULES_H
#define TILEKIT_LIB_CONVERSION_PRODUCERRULES_H

#include "ProducerEmission.h"

#include <memory>

namespace tilekit::producer {

/// What every call of a producer's runtime takes first: the running core.
inline constexpr llvm::StringLiteral kContextArg = "tilekit_producer::ctx()";

/// One op being lowered: its converted operands, the call being built (the
/// context already its first argument) and how the op is replaced.
class Lowering {
public:
  Lowering(Operation *op, ArrayRef<Value> operands,
           ConversionPatternRewriter &rewriter,
           const mlir::TypeConverter &types)
      : op(op), rewriter(rewriter), call{rewriter, op->getLoc(), {}, {}},
        operands(operands) {
    call.literal(kContextArg);
    if (op->getNumResults())
      resultType = types.convertType(op->getResult(0).getType());
    // Index results come out as ptrdiff_t and are cast back for the index
    // arithmetic around them (stage two folds the pair away).
    indexResult = resultType && isa<IndexType>(resultType);
    if (indexResult)
      resultType = emitc::PtrDiffTType::get(op->getContext());
  }

  Operation *const op;
  ConversionPatternRewriter &rewriter;
  CallBuilder call;
  /// The C++ type of the op's first result (none without one).
  Type resultType;

  /// The converted value of `original`, an operand of the op.
  Value converted(Value original) const {
    for (mlir::OpOperand &use : op->getOpOperands())
      if (use.get() == original)
        return operands[use.getOperandNumber()];
    return Value();
  }
  SmallVector<Value> converted(ValueRange originals) const {
    SmallVector<Value> values;
    for (Value original : originals)
      values.push_back(converted(original));
    return values;
  }
  /// Replaces the op by `value` (none: erases it).
  mlir::LogicalResult replace(Value value) {
    if (value && indexResult)
      value = emitc::CastOp::create(rewriter, op->getLoc(),
                                    rewriter.getIndexType(), value);
    if (value)
      rewriter.replaceOp(op, value);
    else
      rewriter.eraseOp(op);
    return mlir::success();
  }
  /// Replaces the op by the call of `callee` built so far, returning the
  /// op's result type (or nothing).
  mlir::LogicalResult replaceByCall(StringRef callee) {
    return replace(call.call(callee, resultType));
  }
  /// Replaces the op by the call of `callee`, which returns nothing.
  mlir::LogicalResult replaceByVoidCall(StringRef callee) {
    return replace(call.call(callee, Type()));
  }

private:
  ArrayRef<Value> operands;
  bool indexResult = false;
};

/// A rule of a producer whose lowering reads `Env` (the tables and what
/// else the producer knows of the module).
template <typename Env> class ProducerRule : public mlir::ConversionPattern {
public:
  ProducerRule(const mlir::TypeConverter &types, MLIRContext *context, Env &env,
               unsigned benefit = 2)
      : ConversionPattern(types, mlir::Pattern::MatchAnyOpTypeTag(), benefit,
                          context),
        env(env) {}

  /// Whether this rule traces `op`.
  virtual bool takes(Operation *op) const = 0;
  /// Replaces `lowering.op` by its call.
  virtual mlir::LogicalResult lower(Lowering &lowering) const = 0;

  mlir::LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const final {
    if (!takes(op))
      return mlir::failure();
    Lowering lowering(op, operands, rewriter, *getTypeConverter());
    return lower(lowering);
  }

protected:
  Env &env;
};

/// A rule for the ops `Ops` (op classes, interfaces or both).
template <typename Env, typename... Ops>
class OpRule : public ProducerRule<Env> {
public:
  using ProducerRule<Env>::ProducerRule;
  bool takes(Operation *op) const override { return isa<Ops...>(op); }
};

/// A producer's rules: the patterns of its first stage, and what they take.
template <typename Env> class RuleSet {
public:
  RuleSet(MLIRContext *context, const mlir::TypeConverter &types, Env &env)
      : context(context), types(types), env(env), patterns(context) {}

  template <typename... Rules> RuleSet &add() {
    (addOne<Rules>(), ...);
    return *this;
  }
  /// Whether some rule takes `op`. Only before the patterns are taken.
  bool takes(Operation *op) const {
    return llvm::any_of(
        rules, [&](const ProducerRule<Env> *rule) { return rule->takes(op); });
  }
  /// The patterns, for the conversion (the set cannot be asked after).
  mlir::RewritePatternSet takePatterns() {
    rules.clear();
    return std::move(patterns);
  }

private:
  template <typename Rule> void addOne() {
    auto rule = std::make_unique<Rule>(types, context, env);
    rules.push_back(rule.get());
    patterns.add(std::move(rule));
  }

  MLIRContext *context;
  const mlir::TypeConverter &types;
  Env &env;
  mlir::RewritePatternSet patterns;
  /// The rules `patterns` owns.
  std::vector<const ProducerRule<Env> *> rules;
};

} // namespace tilekit::producer

#endif // TILEKIT_LIB_CONVERSION_PRODUCERRULES_H
