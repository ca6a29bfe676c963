"""The `ir` module the generated op classes build with (`_ods_ir` in them):
the native objects of `_native.ir` (Type, Attribute, Location, Value, Block,
Region, Operation, Module), OpView (the base of every op class: it makes
the operation where the builder stands, located at the Python line that
asked for it) and AttrBuilder (attributes from Python values by ODS
attribute kind)."""

import contextlib
import os
import sys
import threading

from .. import _native

_ir = _native.ir
# Every native object and maker (integer_attr, function_type, ...).
globals().update({name: getattr(_ir, name) for name in dir(_ir) if not name.startswith("_")})
Type = _ir.Type
Attribute = _ir.Attribute
Location = _ir.Location
Value = _ir.Value
Block = _ir.Block
Region = _ir.Region
Operation = _ir.Operation
Module = _ir.Module
IRError = _ir.IRError


def _subscriptable(cls):
    # Generated annotations read like `Value[IndexType]`.
    cls.__class_getitem__ = classmethod(lambda c, item: c)
    return cls


for _cls in (Value, Attribute, Type):
    _subscriptable(_cls)


class _AnnotationOnly:
    """Names the generated code uses in annotations only."""

    def __class_getitem__(cls, item):
        return cls


OpResult = Value
OpResultList = OpOperandList = RegionSequence = list
IntegerAttr = ArrayAttr = StringAttr = FlatSymbolRefAttr = Attribute
TypeAttr = DenseI32ArrayAttr = DenseI64ArrayAttr = DenseBoolArrayAttr = Attribute
DictAttr = BoolAttr = FloatAttr = Attribute
IndexType = IntegerType = FloatType = VectorType = _AnnotationOnly


class Dialect:
    pass


class UnitAttr:
    @staticmethod
    def get(context=None):
        return _ir.unit_attr()


class _Attributes:
    """An operation's attributes by name (what generated accessors read)."""

    def __init__(self, op):
        self._op = op

    def __getitem__(self, name):
        value = self._op.get_attr(name)
        if value is None:
            raise KeyError(name)
        return value

    def __setitem__(self, name, value):
        self._op.set_attr(name, value)

    def __contains__(self, name):
        return self._op.has_attr(name)


Operation.attributes = property(lambda op: _Attributes(op))


# Where new operations go: a stack of (block, before-op or None) per thread.
_state = threading.local()


def _points():
    if not hasattr(_state, "points"):
        _state.points = []
    return _state.points


@contextlib.contextmanager
def insertion_point(block, before=None):
    """Builds new operations at the end of `block` (before `before`)."""
    _points().append((block, before))
    try:
        yield
    finally:
        _points().pop()


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def current_location():
    """The Python line that is building: the innermost frame outside the
    tilekit package (the kernel's source line)."""
    frame = sys._getframe(1)
    while frame is not None:
        path = os.path.abspath(frame.f_code.co_filename)
        if not path.startswith(_PACKAGE_DIR + os.sep):
            line, column = frame.f_lineno, 1
            positions = list(frame.f_code.co_positions())
            index = frame.f_lasti // 2
            if 0 <= index < len(positions) and positions[index][0] == line \
                    and positions[index][2] is not None:
                column = positions[index][2] + 1
            return Location.file(frame.f_code.co_filename, line, column)
        frame = frame.f_back
    return Location.unknown()


def as_value(arg):
    if isinstance(arg, OpView):
        return arg.result
    if hasattr(arg, "__tilekit_value__"):
        return arg.__tilekit_value__()
    return arg


def _flatten(items, segments):
    """The flat list of `items` (variadic groups are lists, an absent
    optional None) and each group's size."""
    flat, sizes = [], []
    for i, item in enumerate(items):
        kind = segments[i] if segments is not None and i < len(segments) else 1
        if item is None:
            sizes.append(0)
        elif isinstance(item, (list, tuple)) or kind == -1:
            group = list(item) if isinstance(item, (list, tuple)) else [item]
            flat.extend(group)
            sizes.append(len(group))
        else:
            flat.append(item)
            sizes.append(1)
    return flat, sizes


class OpView:
    """The base of the generated op classes: makes the operation."""

    _ODS_OPERAND_SEGMENTS = None
    _ODS_RESULT_SEGMENTS = None

    def __init__(self, name, regions_spec=(0, True), operand_segments=None,
                 result_segments=None, *, attributes=None, results=None,
                 operands=None, successors=None, regions=None, loc=None, ip=None):
        attributes = dict(attributes or {})
        operands, operand_sizes = _flatten(operands or [], operand_segments)
        operands = [as_value(v) for v in operands]
        if operand_segments is not None:
            attributes["operandSegmentSizes"] = _ir.dense_i32_array_attr(operand_sizes)
        if results is not None:
            results, result_sizes = _flatten(results, result_segments)
            if result_segments is not None:
                attributes["resultSegmentSizes"] = _ir.dense_i32_array_attr(result_sizes)
        if successors:
            raise ValueError("%s: successors are not supported" % name)
        block, before = ip if ip is not None else (_points()[-1] if _points() else (None, None))
        if block is None:
            raise ValueError("%s: no insertion point (build inside a kernel)" % name)
        self.operation = _ir.create_operation(
            name, results, operands, list(attributes.items()),
            regions if regions is not None else regions_spec[0],
            loc if loc is not None else current_location(), block, before)

    @property
    def results(self):
        return self.operation.results

    @property
    def result(self):
        results = self.operation.results
        if len(results) != 1:
            raise ValueError("%s has %d results" % (self.operation.name, len(results)))
        return results[0]


def _integer(width):
    return lambda value, context=None: _ir.integer_attr(Type.parse("i%d" % width), int(value))


class AttrBuilder:
    """Attributes from Python values, by the ODS attribute kind the
    generated code names (`I64Attr`, `PTO_SplitCode`, ...); PTO's enums by
    case name or value."""

    _BUILDERS = {
        "I32Attr": _integer(32),
        "I64Attr": _integer(64),
        "I1Attr": _integer(1),
        "IndexAttr": lambda v, context=None: _ir.integer_attr(Type.parse("index"), int(v)),
        "UnitAttr": lambda v, context=None: _ir.unit_attr(),
        "StrAttr": lambda v, context=None: _ir.string_attr(v),
        "SymbolNameAttr": lambda v, context=None: _ir.string_attr(v),
        "FlatSymbolRefAttr": lambda v, context=None: _ir.symbol_ref_attr(v),
        "DenseI64ArrayAttr": lambda v, context=None: _ir.dense_i64_array_attr(list(v)),
    }

    @classmethod
    def contains(cls, kind):
        return kind in cls._BUILDERS or kind.startswith("PTO_")

    @classmethod
    def get(cls, kind):
        builder = cls._BUILDERS.get(kind)
        if builder is not None:
            return builder
        return lambda value, context=None: _ir.enum_attr(kind, value)
