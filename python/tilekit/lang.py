"""Kernels written as Python functions (`tilekit.lang`, docs/python.md).

    import tilekit.lang as tk

    @tk.incore
    def softmax_tile(x: tk.tensor((None, 128), tk.f32), y: tk.tensor((None, 128), tk.f32),
                     row: tk.index, rows: tk.index, *, tile=16):
        t = tk.load(x, [row, 0], shape=(tile, 128), valid=[rows, 128])
        ...
        return tk.store(p, y, [row, 0])

    kernel = tk.build(softmax, tile=32)
    kernel.mlir()                      # the text the command-line tools read
    tilekit.run(kernel, {...})         # run, sim, compile take it as a file

A function's positional parameters are the kernel's arguments (their
annotations give the types; with `from __future__ import annotations` they
may use the compile-time parameters), its keyword-only parameters are
compile-time parameters: plain Python ints and tuples. Everything else is
inferred from the operations. `for i in tk.range(...)` becomes `scf.for` and
`if` on an IR condition `scf.if`, the variables they reassign carried
through; a Python `for` or an `if` on a Python value runs as Python does,
as the kernel is built.

The ops are the PTO dialect's, by the name they have there without the
`tile.` / `tensor.` prefix (`tk.row_max`, `tk.matmul`, `tk.tpush_to_aiv`,
`tk.bar_all`): their operands and attributes come from classes generated
from the dialect's ODS (tilekit/_mlir), in the ODS order; this module adds
only each family's result type (RESULT_RULES) and turns Python numbers into
constants. Every op is located at the Python line that made it and verified
as it is made: a shape or type error raises `tilekit.lang.KernelError` at
that line.
"""

import ast
import builtins
import inspect
import itertools
import textwrap

from ._mlir import ir as _ir
from ._mlir import _arith_ops_gen as _arith
from ._mlir import _func_ops_gen as _func
from ._mlir import _pto_ops_gen as _pto
from ._mlir import _scf_ops_gen as _scf

__all__ = ["tensor", "tile", "index", "f16", "bf16", "f32", "i1", "i8", "i16", "i32",
           "i64", "incore", "aic", "aiv", "orchestration", "group", "build", "range",
           "constant", "KernelError", "Kernel"]

# The package's commands take a built kernel as they take a file.
from . import check, compile, run, sim, compare, tune  # noqa: E402,F401,A004

Value = _ir.Value
Type = _ir.Type

# Element types by their MLIR spelling.
f16, bf16, f32 = "f16", "bf16", "f32"
i1, i8, i16, i32, i64 = "i1", "i8", "i16", "i32", "i64"
index = "index"


class KernelError(Exception):
    """A kernel that does not build: an op that does not verify (the
    message names its Python file, line and column; so do `file`, `line`
    and `column`), or a Python construct the builder cannot turn into IR."""

    def __init__(self, message):
        first = message.split(": error: ", 1)[0] if ": error: " in message else ""
        parts = first.rsplit(":", 2)
        if not (len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit()):
            # Raised by the builder itself: at the kernel's line that asked.
            message = "%s: error: %s" % (_where(), message)
            parts = message.split(": error: ", 1)[0].rsplit(":", 2)
        super().__init__(message)
        self.file, self.line, self.column = None, 0, 0
        if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
            self.file, self.line, self.column = parts[0], int(parts[1]), int(parts[2])


def _where():
    """The kernel's source position being built, "file:line:column"."""
    loc = _ir.current_location()
    return str(loc).replace("loc(", "").rstrip(")").replace('"', "")


def _type(spec):
    if isinstance(spec, Type):
        return spec
    if isinstance(spec, str):
        return Type.parse(spec)
    raise KernelError("expected a type, not %r" % (spec,))


def _dims(shape):
    return "x".join("?" if d is None or d == "?" else str(int(d)) for d in shape)


_SCALARS = {index, f16, bf16, f32, i1, i8, i16, i32, i64}


def _is_type_text(text):
    return text in _SCALARS or text.startswith("!") or text.startswith("vector<")


def tensor(shape, dtype):
    """The type of a GM tensor: `tensor((None, 128), tk.f16)` is
    `!pto.tensor<?x128xf16>` (None: known at run time)."""
    return Type.parse("!pto.tensor<%sx%s>" % (_dims(shape), dtype))


def tile(shape, dtype, space="vec"):
    """The type of a tile in `space` (vec, mat, left, right, acc, bias)."""
    return Type.parse("!pto.tile<%sx%s, %s>" % (_dims(shape), dtype, space))


# --- Building -----------------------------------------------------------


class _Function:
    """A function being built: where its constants go."""

    def __init__(self, op, block):
        self.op, self.block = op, block
        self.constants = {}  # (type, value) -> Value


class _Builder:
    """The module being built and the functions made so far."""

    current = None

    def __init__(self):
        self.module = _ir.Module(_ir.Location.unknown())
        self.made = {}  # (KernelFunction, parameters) -> symbol name
        self.function_ops = {}  # symbol name -> its func.func
        self.names = set()
        self.functions = []  # the _Function stack


def _builder():
    if _Builder.current is None:
        raise KernelError("build kernels with tilekit.lang.build(...); ops and "
                          "kernel calls exist only inside it")
    return _Builder.current


def _function():
    return _builder().functions[-1]


def _verify(op):
    try:
        op.verify()
    except _ir.IRError as error:
        raise KernelError(str(error).strip()) from None


def _make(fn, *args, **kwargs):
    """Calls a generated builder; an op that does not verify raises
    KernelError naming the Python line."""
    try:
        return fn(*args, **kwargs)
    except _ir.IRError as error:
        raise KernelError(str(error).strip()) from None


def constant(value, dtype=index):
    """A constant of `dtype`; Python ints used as indices become these by
    themselves. Constants sit at the top of the function, each made once."""
    function = _function()
    the_type = _type(dtype)
    key = (str(the_type), repr(value))
    found = function.constants.get(key)
    if found is not None:
        return found
    if the_type.is_float:
        attr = _ir.float_attr(the_type, float(value))
    else:
        attr = _ir.integer_attr(the_type, int(value))
    # Index constants first, in value order, then the others in the order
    # they were asked for: the layout hand-written kernels use.
    before = _constant_position(function, the_type, value)
    with _ir.insertion_point(function.block, before):
        made = _make(_arith.constant, attr, results=[the_type])
    function.constants[key] = made
    return made


def _constant_position(function, the_type, value):
    ops = function.block.operations
    constants = set(function.constants.values())
    for op in ops:
        results = op.results
        if not (op.name == "arith.constant" and results and results[0] in constants):
            return op
        other = results[0]
        if the_type.is_index and other.type.is_index:
            if op.get_attr("value").int_value > int(value):
                return op
        elif the_type.is_index:
            return op
    return None


def _as_value(arg, like=None):
    """`arg` as an IR value: Python numbers become constants of `like`'s
    element type (or index)."""
    if isinstance(arg, Value):
        return arg
    if isinstance(arg, bool):
        return constant(int(arg), i1)
    if isinstance(arg, (int, float)):
        dtype = index
        if like is not None:
            dtype = str(like.element_type) if like.element_type is not None else str(like)
        if isinstance(arg, float) and dtype in (index, "i32", "i64"):
            raise KernelError("the float %r where an integer is expected" % arg)
        return constant(arg, dtype)
    if hasattr(arg, "__tilekit_value__"):
        return arg.__tilekit_value__()
    raise KernelError("expected an IR value or a number, not %r" % (arg,))


# --- Kernel functions ---------------------------------------------------


class KernelFunction:
    """A Python function that builds one PTO function (of `kind`)."""

    def __init__(self, fn, kind, attributes=None, name=None):
        self.fn, self.kind = fn, kind
        self.attributes = dict(attributes or {})
        self.name = name or fn.__name__
        self.signature = inspect.signature(fn)
        self._rewritten = None
        self.__doc__ = fn.__doc__

    def _positional(self):
        return [p for p in self.signature.parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]

    def _parameters(self, params):
        """The compile-time parameters of a build or call: `params` over the
        defaults."""
        keyword = {p.name: p for p in self.signature.parameters.values()
                   if p.kind == p.KEYWORD_ONLY}
        values = {}
        for name, param in keyword.items():
            if name in params:
                values[name] = params[name]
            elif param.default is not param.empty:
                values[name] = param.default
            else:
                raise KernelError("%s: give the compile-time parameter %s"
                                  % (self.name, name))
        unknown = set(params) - set(keyword)
        if unknown:
            raise KernelError("%s has no compile-time parameter %s"
                              % (self.name, ", ".join(sorted(unknown))))
        return values

    def argument_types(self, params):
        """(names, types, parameters) of the kernel's arguments for `params`."""
        positional = self._positional()
        values = self._parameters(params)
        types = []
        for param in positional:
            annotation = param.annotation
            if annotation is param.empty:
                raise KernelError("%s: argument %s needs a type annotation "
                                  "(tk.tensor(...), tk.index, ...)" % (self.name, param.name))
            if isinstance(annotation, str) and not _is_type_text(annotation):
                # `from __future__ import annotations`: the annotation's source.
                scope = dict(self.fn.__globals__)
                scope.update(values)
                annotation = eval(annotation, scope)  # noqa: S307 - the user's own code
            types.append(_type(annotation))
        return [p.name for p in positional], types, values

    def __call__(self, *args, **params):
        """A call from another kernel function: `func.call` of this function
        built for `params` (once per distinct parameters)."""
        builder = _builder()
        arity = len(self._positional())
        if len(args) != arity:
            raise KernelError("%s takes %d kernel arguments, not %d"
                              % (self.name, arity, len(args)))
        names, types, values = self.argument_types(params)
        symbol = _define(builder, self, values)
        operands = [_as_value(a, t) for a, t in zip(args, types)]
        result_types = _ir.function_results(builder.function_ops[symbol])
        call = _make(_func.CallOp, result_types, _ir.symbol_ref_attr(symbol), operands)
        results = call.results
        if not results:
            return None
        return results[0] if len(results) == 1 else tuple(results)


def _kind_decorator(kind, **fixed):
    def decorate(fn=None, **attributes):
        if fn is None:
            return lambda f: KernelFunction(f, kind, {**fixed, **attributes})
        return KernelFunction(fn, kind, {**fixed, **attributes})
    decorate.__name__ = kind
    decorate.__doc__ = "Marks a function as a PTO `%s` function." % kind
    return decorate


incore = _kind_decorator("incore")
aic = _kind_decorator("aic")
aiv = _kind_decorator("aiv")
orchestration = _kind_decorator("orchestration")


def group(name, *, aic, aiv, split=None):
    """A group function `name` (a cube and a vector function launched
    together): calling it calls both. Its members are built as
    `<name>_aic` and `<name>_aiv`, how PTO pairs them; the group takes the
    cube function's arguments and parameters."""
    members = []
    for member, suffix in ((aic, "_aic"), (aiv, "_aiv")):
        member = KernelFunction(member.fn, member.kind, member.attributes, name + suffix)
        members.append(member)
    attributes = {} if split is None else {"split": split}
    grouped = KernelFunction(aic.fn, "group", attributes, name)
    grouped.members = members
    return grouped


def _unique_name(builder, wanted):
    name = wanted
    for n in itertools.count(1):
        if name not in builder.names:
            break
        name = "%s_%d" % (wanted, n)
    builder.names.add(name)
    return name


def _define(builder, kfn, values, symbol=None):
    """The symbol of `kfn` built for `values`, built now if it is not yet
    (named `symbol` when given)."""
    key = (id(kfn.fn), kfn.name, tuple(sorted((k, repr(v)) for k, v in values.items())))
    if key in builder.made:
        return builder.made[key]
    if symbol is None:
        symbol = _unique_name(builder, kfn.name)
    # A group's members are paired with it by name: <group>_aic, <group>_aiv.
    for member in getattr(kfn, "members", []):
        _define(builder, member, values,
                _unique_name(builder, symbol + member.name[len(kfn.name):]))
    builder.made[key] = symbol
    names, types, _ = kfn.argument_types(values)
    loc = _ir.Location.file(inspect.getsourcefile(kfn.fn) or "<python>",
                            kfn.fn.__code__.co_firstlineno, 1)
    # A callee goes before the function that calls it, as kernels are read.
    before = builder.functions[0].op if builder.functions else None
    with _ir.insertion_point(builder.module.body, before):
        op = _func.FuncOp(_ir.string_attr(symbol),
                          _ir.type_attr(_ir.function_type(types, [])), loc=loc).operation
    builder.function_ops[symbol] = op
    op.set_attr("pto.kind", _ir.Attribute.parse("#pto.kind<%s>" % kfn.kind))
    for key_name, value in kfn.attributes.items():
        op.set_attr("pto." + key_name, _ir.integer_attr(Type.parse("i32"), int(value)))
    block = op.regions[0].add_block()
    args = [block.add_argument(t, _ir.Location.named(n, loc)) for n, t in zip(names, types)]
    function = _Function(op, block)
    builder.functions.append(function)
    try:
        with _ir.insertion_point(block):
            returned = None if kfn.kind == "group" else _rewrite(kfn)(*args, **values)
            if returned is None:
                returned = ()
            elif not isinstance(returned, (tuple, list)):
                returned = (returned,)
            returned = [_as_value(v) for v in returned]
            op.set_attr("function_type", _ir.type_attr(
                _ir.function_type(types, [v.type for v in returned])))
            _make(_func.ReturnOp, returned, loc=loc)
    finally:
        builder.functions.pop()
    _verify(op)
    return symbol


class Kernel:
    """A built module: `mlir()` is its text; tilekit.run / sim / compile /
    check take it as they take a file."""

    def __init__(self, module, entry):
        self.module, self.entry = module, entry

    def mlir(self, locations=False):
        """The module as MLIR text (SSA names from the Python variables);
        with locations=True each op's `loc(...)`, the Python line."""
        return self.module.to_text(locations)

    def __str__(self):
        return self.mlir()

    def __tilekit_source__(self):
        return self.mlir(locations=True)


def build(entry, **params):
    """Builds `entry` (a kernel function) for the compile-time `params`,
    with every function it calls, into one module."""
    if not isinstance(entry, KernelFunction):
        raise KernelError("build takes a function decorated with tk.incore, "
                          "tk.orchestration, ... not %r" % (entry,))
    builder = _Builder()
    previous, _Builder.current = _Builder.current, builder
    try:
        _, _, values = entry.argument_types(params)
        symbol = _define(builder, entry, values)
        _verify(builder.module.operation)
    finally:
        _Builder.current = previous
    return Kernel(builder.module, symbol)


# --- Control flow --------------------------------------------------------


class range:  # noqa: A001 - tk.range, as Python's
    """`for i in tk.range(lo, hi, step)`: an `scf.for` over index values
    (hi and step may be IR values). Variables the body reassigns are
    carried through the loop."""

    def __init__(self, start, stop=None, step=1):
        if stop is None:
            start, stop = 0, start
        self.start, self.stop, self.step = start, stop, step

    def __iter__(self):
        raise KernelError("tk.range is a loop of the kernel: use it as the `for` of a "
                          "kernel function, with one exit (no return, break or continue "
                          "inside: assign a variable instead)")


class _Undefined:
    """A variable not yet defined where a loop or branch starts."""

    def __repr__(self):
        return "<undefined>"


UNDEFINED = _Undefined()


def _lookup(scope, name):
    return scope.get(name, UNDEFINED)


def _for(iterable, body, carried, names, target_name):
    if not isinstance(iterable, range):
        # A Python loop: runs as the kernel is built.
        for item in iterable:
            carried = body(item, *carried)
        return carried
    start, stop, step = (_as_value(v) for v in (iterable.start, iterable.stop, iterable.step))
    ir_carried = [i for i, v in enumerate(carried) if isinstance(v, Value)]
    inits = [carried[i] for i in ir_carried]
    loop = _make(_scf.ForOp, [v.type for v in inits], start, stop, step, inits)
    op = loop.operation
    block = op.regions[0].add_block()
    loc = op.location
    iv = block.add_argument(Type.parse("index"), _ir.Location.named(target_name, loc))
    args = list(carried)
    for i in ir_carried:
        args[i] = block.add_argument(carried[i].type, _ir.Location.named(names[i], loc))
    with _ir.insertion_point(block):
        out = body(iv, *args)
        for i, (before, after) in enumerate(zip(carried, out)):
            if i not in ir_carried and after is not before and not isinstance(before, _Undefined):
                raise KernelError("%s changes in a tk.range loop but was a Python value "
                                  "before it (%r): make it an IR value first, e.g. "
                                  "tk.constant(...)" % (names[i], before))
        _make(_scf.YieldOp, [_as_value(out[i]) for i in ir_carried])
    _verify(op)
    results = list(carried)
    for n, i in enumerate(ir_carried):
        results[i] = op.results[n]
    # Defined in the body only: not defined after the loop.
    return tuple(UNDEFINED if isinstance(c, _Undefined) else r
                 for c, r in zip(carried, results))


def _if(condition, then_body, else_body, carried, names):
    if not isinstance(condition, Value):
        return (then_body if condition else else_body)(*carried)
    if str(condition.type) != "i1":
        raise KernelError("an `if` on an IR value needs an i1 condition (a comparison), "
                          "not %s" % condition.type)
    branch = _make(_scf.IfOp, [], condition)  # result types fixed below
    op = branch.operation
    then_block = op.regions[0].add_block()
    with _ir.insertion_point(then_block):
        then_out = then_body(*carried)
    else_block = op.regions[1].add_block()
    with _ir.insertion_point(else_block):
        else_out = else_body(*carried)
    results = []
    for a, b in zip(then_out, else_out):
        if a is b:
            results.append(("same", a))
        elif isinstance(a, _Undefined) or isinstance(b, _Undefined):
            results.append(("same", UNDEFINED))
        else:
            results.append(("value", (a, b)))
    yielded = [r for kind, r in results if kind == "value"]
    if not yielded:
        for block in (then_block, else_block):
            with _ir.insertion_point(block):
                _make(_scf.YieldOp, [])
        _drop_empty_else(op)
        _verify(op)
        return tuple(r for _, r in results)
    # The branches produce values (Python numbers become constants of the
    # other branch's type): rebuild the op with its result types.
    likes = [a.type if isinstance(a, Value) else b.type if isinstance(b, Value) else None
             for a, b in yielded]
    with _ir.insertion_point(then_block):
        then_values = [_as_value(a, like) for (a, _), like in zip(yielded, likes)]
    with _ir.insertion_point(else_block):
        else_values = [_as_value(b, like) for (_, b), like in zip(yielded, likes)]
    types = [v.type for v in then_values]
    with _ir.insertion_point(then_block):
        _make(_scf.YieldOp, then_values)
    with _ir.insertion_point(else_block):
        _make(_scf.YieldOp, else_values)
    op = _ir.retype_results(op, types)
    _verify(op)
    values = iter(op.results)
    return tuple(next(values) if kind == "value" else r for kind, r in results)


def _drop_empty_else(op):
    """An else that only yields is left out, as `scf.if` prints without it."""
    else_region = op.regions[1]
    blocks = else_region.blocks
    if blocks and len(blocks[0].operations) == 1:
        _ir.clear_region(else_region)


class _Assigned(ast.NodeVisitor):
    """The names a block of statements assigns (not in nested functions)."""

    def __init__(self):
        self.names = []

    def _add(self, name):
        if name not in self.names:
            self.names.append(name)

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Store):
            self._add(node.id)

    def visit_FunctionDef(self, node):
        self._add(node.name)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        pass


def _assigned(statements):
    visitor = _Assigned()
    for statement in statements:
        visitor.visit(statement)
    return visitor.names


class _ControlFlow(ast.NodeTransformer):
    """Turns `for` and `if` statements into calls of tk._for / tk._if with
    their bodies as nested functions; names each assigned value."""

    def __init__(self, filename, line_offset):
        self.count = itertools.count()
        self.filename, self.line_offset = filename, line_offset

    def _body_function(self, name, params, statements, returns, node):
        args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params],
                             kwonlyargs=[], kw_defaults=[], defaults=[])
        ret = ast.Return(value=ast.Tuple(elts=[ast.Name(id=r, ctx=ast.Load()) for r in returns],
                                         ctx=ast.Load()))
        fn = ast.FunctionDef(name=name, args=args, body=list(statements) + [ret],
                             decorator_list=[], returns=None, type_params=[])
        for new in ast.walk(fn):
            if not hasattr(new, "lineno") or new.lineno is None:
                ast.copy_location(new, node)
        return fn

    @staticmethod
    def _exits(statements):
        """Whether the statements return, break or continue (not in nested
        functions): then they stay Python, run as the kernel is built."""
        pending = list(statements)
        while pending:
            node = pending.pop()
            if isinstance(node, (ast.FunctionDef, ast.Lambda)):
                continue  # its own returns
            if isinstance(node, (ast.Return, ast.Break, ast.Continue)):
                return True
            pending.extend(ast.iter_child_nodes(node))
        return False

    def _carried_lookup(self, names, node):
        scope = ast.Call(func=ast.Name(id="locals", ctx=ast.Load()), args=[], keywords=[])
        return ast.Tuple(elts=[ast.Call(func=ast.Name(id="__tk_lookup", ctx=ast.Load()),
                                        args=[scope, ast.Constant(n)], keywords=[])
                               for n in names], ctx=ast.Load())

    def _assign_back(self, names, call, node):
        if not names:
            return ast.Expr(value=call)
        assign = ast.Assign(targets=[ast.Tuple(elts=[ast.Name(id=n, ctx=ast.Store())
                                                     for n in names], ctx=ast.Store())],
                            value=call)
        return [assign] + [self._named(n) for n in names]

    @staticmethod
    def _named(name):
        return ast.Expr(value=ast.Call(
            func=ast.Name(id="__tk_name", ctx=ast.Load()),
            args=[ast.Name(id=name, ctx=ast.Load()), ast.Constant(name)], keywords=[]))

    def visit_For(self, node):
        self.generic_visit(node)
        if node.orelse:
            raise KernelError("%s:%d:%d: error: a `for ... else` is not a kernel loop"
                              % (self.filename, node.lineno + self.line_offset,
                                 node.col_offset + 1))
        if not isinstance(node.target, ast.Name) or self._exits(node.body):
            return node  # a Python loop (tk.range refuses to be one)
        names = [n for n in _assigned(node.body)
                 if n != node.target.id and not n.startswith("__tk_")]
        fn_name = "__tk_for_%d" % next(self.count)
        fn = self._body_function(fn_name, [node.target.id] + names, node.body, names, node)
        call = ast.Call(func=ast.Name(id="__tk_for", ctx=ast.Load()),
                        args=[node.iter, ast.Name(id=fn_name, ctx=ast.Load()),
                              self._carried_lookup(names, node),
                              ast.Constant(tuple(names)), ast.Constant(node.target.id)],
                        keywords=[])
        out = [fn] + _as_list(self._assign_back(names, call, node))
        for new in out:
            ast.copy_location(new, node)
            ast.fix_missing_locations(new)
        return out

    def visit_If(self, node):
        self.generic_visit(node)
        if self._exits(node.body + node.orelse):
            return node  # a Python `if` (an IR condition refuses to be one)
        names = [n for n in _assigned(node.body + node.orelse) if not n.startswith("__tk_")]
        n = next(self.count)
        then_fn = self._body_function("__tk_then_%d" % n, names, node.body, names, node)
        else_fn = self._body_function("__tk_else_%d" % n, names, node.orelse or [ast.Pass()],
                                      names, node)
        call = ast.Call(func=ast.Name(id="__tk_if", ctx=ast.Load()),
                        args=[node.test, ast.Name(id=then_fn.name, ctx=ast.Load()),
                              ast.Name(id=else_fn.name, ctx=ast.Load()),
                              self._carried_lookup(names, node), ast.Constant(tuple(names))],
                        keywords=[])
        out = [then_fn, else_fn] + _as_list(self._assign_back(names, call, node))
        for new in out:
            ast.copy_location(new, node)
            ast.fix_missing_locations(new)
        return out

    def visit_Assign(self, node):
        self.generic_visit(node)
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            named = self._named(node.targets[0].id)
            ast.copy_location(named, node)
            ast.fix_missing_locations(named)
            return [node, named]
        return node


def _name(value, name):
    if isinstance(value, Value) and not name.startswith("_"):
        _ir.name_value(value, name)


def _rewrite(kfn):
    """kfn's function with its control flow turned into IR builders."""
    if kfn._rewritten is not None:
        return kfn._rewritten
    fn = kfn.fn
    try:
        source = inspect.getsource(fn)
    except (OSError, TypeError) as error:
        raise KernelError("%s: its source is needed to build it (%s)" % (kfn.name, error))
    lines = source.splitlines(True)
    indent = len(lines[0]) - len(lines[0].lstrip())
    tree = ast.parse(textwrap.dedent(source))
    for node in ast.walk(tree):
        if hasattr(node, "col_offset") and node.col_offset is not None:
            node.col_offset += indent
            if getattr(node, "end_col_offset", None) is not None:
                node.end_col_offset += indent
    definition = tree.body[0]
    definition.decorator_list = []
    # The types were read from the original's annotations already.
    for arg in ast.walk(definition.args):
        if isinstance(arg, ast.arg):
            arg.annotation = None
    definition.returns = None
    filename = inspect.getsourcefile(fn) or "<python>"
    transformer = _ControlFlow(filename, fn.__code__.co_firstlineno - 1)
    definition.body = [s for statement in definition.body
                       for s in _as_list(transformer.visit(statement))]
    # Free variables of the original come in as a maker's parameters.
    free = list(fn.__code__.co_freevars)
    maker = ast.FunctionDef(
        name="__tk_make",
        args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in free],
                           kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=[definition, ast.Return(value=ast.Name(id=definition.name, ctx=ast.Load()))],
        decorator_list=[], returns=None, type_params=[])
    module = ast.Module(body=[maker], type_ignores=[])
    ast.copy_location(maker, definition)
    ast.fix_missing_locations(module)
    ast.increment_lineno(module, fn.__code__.co_firstlineno - 1)
    code = builtins.compile(module, filename, "exec")
    scope = dict(fn.__globals__)
    scope.update(__tk_for=_for, __tk_if=_if, __tk_lookup=_lookup, __tk_name=_name)
    exec(code, scope)  # noqa: S102 - the user's own function, rewritten
    cells = [c.cell_contents for c in (fn.__closure__ or ())]
    kfn._rewritten = scope["__tk_make"](*cells)
    return kfn._rewritten


def _as_list(result):
    return result if isinstance(result, list) else [result]


# --- Ops -----------------------------------------------------------------
#
# tk.<name>(...) calls the generated builder of `pto.tile.<name>` when its
# first shaped operand is a tile, `pto.tensor.<name>` when it is a tensor,
# else `pto.system.<name>` / `pto.<name>`. Its parameters are the
# generated builder's: the op's operands and attributes in ODS order (lists
# for variadic operands), without the results. RESULT_RULES gives each
# family's result types from its operands; ops that make a tile from
# nothing (tpop, create, full, iota) take the type as `result=`.


def _shape(value):
    return list(value.type.shape)


def _element(value):
    return str(value.type.element_type)


def _clone(value, shape=None, dtype=None):
    the_type = value.type
    return the_type.clone(list(the_type.shape) if shape is None else list(shape),
                          _type(dtype) if dtype is not None else the_type.element_type)


def _same_as(name):
    return lambda ops, kw: [ops[name].type]


def _fold(rows):
    def rule(ops, kw):
        shape = _shape(ops["src"])
        return [_clone(ops["src"], shape[:-2] + ([shape[-2], 1] if rows else [1, shape[-1]]))]
    return rule


def _with_shape(name):
    def rule(ops, kw):
        if "shape" not in kw:
            raise KernelError("give the result's shape=(...)")
        return [_clone(ops[name], kw.pop("shape"))]
    return rule


def _matmul_result(ops, kw):
    lhs, rhs = ops["lhs"], ops["rhs"]
    acc = "i32" if _element(lhs) in ("i8", "ui8") else "f32"
    shape = _shape(lhs)[:-1] + [_shape(rhs)[-1]]
    if lhs.type.shape is not None and "tile" in str(lhs.type):
        return [tile(shape, acc, "acc")]
    return [tensor(shape, acc)]


def _load_result(ops, kw):
    if "shape" not in kw:
        raise KernelError("load: give the tile's shape=(rows, cols)")
    return [tile(kw.pop("shape"), _element(ops["src"]), kw.pop("space", "vec"))]


def _move_result(ops, kw):
    if "space" not in kw:
        raise KernelError("move: give the destination space= (mat, left, right, acc, bias, vec)")
    return [tile(_shape(ops["src"]), _element(ops["src"]), kw.pop("space"))]


def _cast_result(ops, kw):
    if "dtype" not in kw:
        raise KernelError("cast: give the element type dtype=")
    return [_clone(ops["src"], dtype=kw.pop("dtype"))]


def _transpose_result(ops, kw):
    shape = _shape(ops["src"])
    return [_clone(ops["src"], shape[:-2] + [shape[-1], shape[-2]])]


def _fold_with_index(ops, kw):
    values = _fold(True)(ops, kw)[0]
    return [values, _clone(ops["src"], list(values.shape), "i32")]


def _sort_result(ops, kw):
    return [ops["src"].type, _clone(ops["src"], dtype="i32")]


def _gather_result(ops, kw):
    return [_clone(ops["indices"], dtype=_element(ops["src"]))]


def _index_result(ops, kw):
    return [Type.parse("index")]


def _element_result(name):
    return lambda ops, kw: [ops[name].type.element_type]


# A vector register and a lane mask (pto-isa's 64 f32 lanes).
_VREG = Type.parse("vector<64xf32>")
_VMASK = Type.parse("vector<64xi1>")

_BINARY = ["add", "sub", "mul", "div", "max", "min", "and", "or", "xor", "shl", "shr", "rem"]
_UNARY = ["abs", "exp", "log", "sqrt", "rsqrt", "recip", "neg", "not", "relu", "sigmoid",
          "tanh", "erf", "row_cumsum", "col_cumsum", "fillpad", "set_validshape"]
_FOLDS = ["sum", "max", "min", "prod"]

RESULT_RULES = {}
RESULT_RULES.update({op: _same_as("lhs") for op in _BINARY})
RESULT_RULES.update({op + "s": _same_as("src") for op in _BINARY})
RESULT_RULES.update({op: _same_as("src") for op in _UNARY})
RESULT_RULES.update({"row_" + op: _fold(True) for op in _FOLDS})
RESULT_RULES.update({"col_" + op: _fold(False) for op in _FOLDS})
RESULT_RULES.update({"%s_expand_%s" % (axis, op): _same_as("lhs")
                     for axis in ("row", "col")
                     for op in ("add", "sub", "mul", "div", "max", "min", "expdif")})
RESULT_RULES.update({
    "row_expand": _with_shape("src"), "col_expand": _with_shape("src"),
    "reshape": _with_shape("src"), "slice": _with_shape("src"), "view": _with_shape("src"),
    "load": _load_result, "move": _move_result, "cast": _cast_result,
    "transpose": _transpose_result,
    "store": _same_as("dst"), "write": _same_as("dst"), "assemble": _same_as("dst"),
    "scatter": _same_as("dst"), "read": _element_result("src"),
    "cmp": lambda ops, kw: [_clone(ops["lhs"], dtype="i1")],
    "cmps": lambda ops, kw: [_clone(ops["src"], dtype="i1")],
    "sel": _same_as("lhs"), "sels": _same_as("src"),
    "gather": _gather_result, "sort32": _sort_result,
    "mrgsort": lambda ops, kw: [ops["values"].type, ops["indices"].type],
    "row_argmax": _fold_with_index, "row_argmin": _fold_with_index,
    "matmul": _matmul_result, "matmul_bias": _matmul_result, "gemv": _matmul_result,
    "batch_matmul": _matmul_result,
    "matmul_acc": _same_as("acc"), "gemv_acc": _same_as("acc"),
    "batch_matmul_acc": _same_as("acc"),
    "dim": _index_result, "valid_dim": _index_result, "get_block_idx": _index_result,
    "get_block_num": _index_result, "get_subblock_idx": _index_result,
    "vreg_load": lambda ops, kw: [_VREG], "vreg_broadcast": lambda ops, kw: [_VREG],
    "vreg_cmp": lambda ops, kw: [_VMASK], "vreg_prefix_mask": lambda ops, kw: [_VMASK],
    "vreg_suffix_mask": lambda ops, kw: [_VMASK], "vreg_runtime_mask": lambda ops, kw: [_VMASK],
    "vreg_select": _same_as("lhs"),
    "vreg_add": _same_as("lhs"), "vreg_sub": _same_as("lhs"), "vreg_mul": _same_as("lhs"),
    "vreg_div": _same_as("lhs"), "vreg_max": _same_as("lhs"), "vreg_min": _same_as("lhs"),
})


class _OpSpec:
    """A generated builder's parameters, read from the generated class:
    which are results and which operands (variadic or not); the others are
    attributes, which the generated code converts itself."""

    def __init__(self, function, cls):
        self.function, self.cls = function, cls
        self.results, self.operands, self.variadic = [], [], set()
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls.__init__)))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                target = node.func.value
                if not (isinstance(target, ast.Name) and node.args):
                    continue
                arg = node.args[0]
                if target.id == "operands" and node.func.attr in ("append", "extend"):
                    if isinstance(arg, ast.Call):  # _get_op_results_or_values(x)
                        arg = arg.args[0]
                        self.variadic.add(arg.id)
                    if isinstance(arg, ast.Name):
                        self.operands.append(arg.id)
                elif target.id == "results" and node.func.attr in ("append", "extend"):
                    if isinstance(arg, ast.Name):
                        self.results.append(arg.id)
        params = inspect.signature(function).parameters
        self.parameters = [p for p in params.values()
                           if p.name not in self.results and p.name not in ("loc", "ip")]


_SPECS = {}


def _spec(generated_name):
    spec = _SPECS.get(generated_name)
    if spec is None:
        function = getattr(_pto, generated_name, None)
        if function is None:
            return None
        cls = _op_class(generated_name)
        spec = _SPECS[generated_name] = _OpSpec(function, cls)
    return spec


def _op_class(generated_name):
    """The generated class a generated builder makes."""
    source = inspect.getsource(getattr(_pto, generated_name))
    called = source.split("return ", 1)[1].split("(", 1)[0].strip()
    return getattr(_pto, called)


def _is_tile(value):
    return isinstance(value, Value) and str(value.type).startswith("!pto.tile<")


def _is_tensor(value):
    return isinstance(value, Value) and str(value.type).startswith("!pto.tensor<")


def _resolve(name, args, kwargs, result=None):
    shaped = [a for a in list(args) + list(kwargs.values()) if _is_tile(a) or _is_tensor(a)]
    prefixes = ["tile_", "tensor_"]
    if (shaped and _is_tensor(shaped[0])) or (
            not shaped and str(result).startswith("!pto.tensor<")):
        prefixes = ["tensor_", "tile_"]
    for prefix in prefixes + ["system_", ""]:
        if hasattr(_pto, prefix + name) and _spec(prefix + name) is not None:
            return prefix + name
    return None


def _call_op(name, *args, result=None, **kwargs):
    _builder()  # ops exist only inside tilekit.lang.build
    generated = _resolve(name, args, kwargs, result)
    if generated is None:
        raise KernelError("no PTO op %r" % name)
    spec = _spec(generated)
    bound = {}
    positional = [p for p in spec.parameters if p.kind == p.POSITIONAL_OR_KEYWORD]
    if len(args) > len(positional):
        raise KernelError("%s takes %d arguments (%s), not %d" % (
            name, len(positional), ", ".join(p.name for p in positional), len(args)))
    for param, arg in zip(positional, args):
        bound[param.name] = arg
    # Spellings kernel code reads better with.
    aliases = {"valid": "valid_shape", "pipe": "pipe_id"}
    for key in list(kwargs):
        target = aliases.get(key, key)
        if any(p.name == target for p in spec.parameters):
            bound[target] = kwargs.pop(key)
    # Numbers take the element type of the data operand (not of a mask).
    shaped_operands = [bound[k] for k in ("src", "lhs", "tile", "dst", "acc", "values")
                       if isinstance(bound.get(k), Value)] + list(bound.values())
    shaped = next((v for v in shaped_operands
                   if isinstance(v, Value) and v.type.shape is not None), None)
    result_types = None
    if spec.results:
        if result is not None:
            result_types = [_type(r) for r in (result if isinstance(result, (list, tuple))
                                               else [result])]
        else:
            rule = RESULT_RULES.get(name) or RESULT_RULES.get(generated)
            if rule is None:
                raise KernelError("%s: give the result type, result=tk.tile(...)" % name)
            operands = {k: _as_value(v, shaped.type if shaped is not None else None)
                        if k in spec.operands and k not in spec.variadic else v
                        for k, v in bound.items()}
            result_types = rule(operands, kwargs)
    if kwargs:
        raise KernelError("%s has no parameter %s" % (name, ", ".join(sorted(kwargs))))
    like = shaped.type if shaped is not None else (result_types[0] if result_types else None)
    for key, value in list(bound.items()):
        if key in spec.variadic:
            bound[key] = [_as_value(v) for v in value]
        elif key in spec.operands and value is not None:
            bound[key] = _as_value(value, like)
    for param in spec.parameters:
        if param.kind == param.POSITIONAL_OR_KEYWORD and param.name not in bound:
            if param.name in spec.variadic:
                bound[param.name] = []
            else:
                raise KernelError("%s: missing %s" % (name, param.name))
    call_args = dict(bound)
    for name_, the_type in zip(spec.results, result_types or []):
        call_args[name_] = the_type
    op = _make(spec.cls, **call_args)
    results = op.operation.results
    if not results:
        return None
    return results[0] if len(results) == 1 else tuple(results)


def load(src, offsets, *, shape, valid=None, space="vec"):
    """`pto.tile.load`: the box of `shape` at `offsets` of GM tensor `src`
    into a new tile in `space` (vec: UB; mat: L1); `valid` limits it."""
    return _call_op("load", src, offsets, valid or [], shape=shape, space=space)


def full(value, shape=None, dtype=None, space="vec", valid=None, *, result=None):
    """`pto.tile.full`: a tile of `shape` holding `value` everywhere (its
    `valid` part); with result=tk.tensor(...), `pto.tensor.full` (then
    `valid` are the sizes of its dynamic dimensions)."""
    kind = result if result is not None else tile(shape, dtype, space)
    return _call_op("full", _as_value(value, kind), valid or [], result=kind)


def reg_scope(body, *captures):
    """`pto.reg_scope` over `captures` (f32 tiles in UB and scalars):
    body(*captured) builds straight-line `tk.vreg_*` ops on the captured
    values and returns the tiles it stored into; reg_scope returns them as
    the scope left them (the scope's results, in that order)."""
    captured = [_as_value(c) for c in captures]
    scope = _make(_pto.RegScopeOp, [], captured)
    op = scope.operation
    block = op.regions[0].add_block()
    args = [block.add_argument(v.type, op.location) for v in captured]
    with _ir.insertion_point(block):
        stored = body(*args)
        if stored is None:
            stored = ()
        elif not isinstance(stored, (tuple, list)):
            stored = (stored,)
        _make(_pto.RegScopeYieldOp, list(stored))
    op = _ir.retype_results(op, [t.type for t in stored])
    _verify(op)
    results = op.results
    if not results:
        return None
    return results[0] if len(results) == 1 else tuple(results)


def _scalar_op(tile_op):
    def apply(a, b):
        if _is_tile(b) or _is_tensor(b):
            return _call_op(tile_op, a, b)
        return _call_op(tile_op + "s", a, b)
    return apply


_ARITH = {
    "add": ("addi", "addf"), "sub": ("subi", "subf"), "mul": ("muli", "mulf"),
    "floordiv": ("floordivsi", None), "truediv": (None, "divf"), "mod": ("remsi", "remf"),
}
_COMPARE = {"lt": ("slt", "olt"), "le": ("sle", "ole"), "gt": ("sgt", "ogt"),
            "ge": ("sge", "oge"), "eq": ("eq", "oeq"), "ne": ("ne", "une")}


def _scalar_arith(op, a, b):
    a_value = a if isinstance(a, Value) else None
    b_value = b if isinstance(b, Value) else None
    like = (a_value if a_value is not None else b_value).type
    a, b = _as_value(a, like), _as_value(b, like)
    integer, floating = _ARITH[op]
    name = floating if like.is_float else integer
    if name is None:
        raise KernelError("%s of %s values" % (op, like))
    return _make(getattr(_arith, name), a, b)


def _compare(op, a, b):
    like = (a if isinstance(a, Value) else b).type
    a, b = _as_value(a, like), _as_value(b, like)
    signed, ordered = _COMPARE[op]
    if like.is_float:
        return _make(_arith.cmpf, _ir.integer_attr(Type.parse("i64"), _CMPF[ordered]), a, b)
    return _make(_arith.cmpi, _ir.integer_attr(Type.parse("i64"), _CMPI[signed]), a, b)


# arith's predicates, as its ODS numbers them (Arith_CmpIPredicateAttr).
_CMPI = {"eq": 0, "ne": 1, "slt": 2, "sle": 3, "sgt": 4, "sge": 5,
         "ult": 6, "ule": 7, "ugt": 8, "uge": 9}
_CMPF = {"oeq": 1, "ogt": 2, "oge": 3, "olt": 4, "ole": 5, "une": 14}


def cmpi(predicate, a, b):
    """`arith.cmpi` with the predicate named (slt, ult, sge, ...)."""
    like = (a if isinstance(a, Value) else b).type
    return _make(_arith.cmpi, _ir.integer_attr(Type.parse("i64"), _CMPI[predicate]),
                 _as_value(a, like), _as_value(b, like))


def _binary(op, reflected=False):
    def apply(self, other):
        a, b = (other, self) if reflected else (self, other)
        if _is_tile(self) or _is_tensor(self):
            if op in ("add", "sub", "mul") or op == "truediv":
                tile_op = {"truediv": "div"}.get(op, op)
                if reflected and not isinstance(other, Value):
                    if op in ("add", "mul"):
                        return _scalar_op(tile_op)(self, other)
                    raise KernelError("a number %s a tile: write the tile first" % op)
                return _scalar_op(tile_op)(a, b)
            raise KernelError("%s of tiles: use the tk op" % op)
        return _scalar_arith(op, a, b)
    return apply


for _op in ("add", "sub", "mul", "floordiv", "truediv", "mod"):
    setattr(Value, "__%s__" % _op, _binary(_op))
    setattr(Value, "__r%s__" % _op, _binary(_op, reflected=True))
for _op in _COMPARE:
    if _op not in ("eq", "ne"):  # values stay hashable and comparable
        setattr(Value, "__%s__" % _op, lambda a, b, _op=_op: _compare(_op, a, b))
def _no_truth(value):
    raise KernelError("the truth of an IR value is known only when the kernel runs: an "
                      "`if` on it must have one exit (no return, break or continue inside: "
                      "assign a variable instead)")


Value.__bool__ = _no_truth
Value.__neg__ = lambda v: _call_op("neg", v) if _is_tile(v) else _scalar_arith("sub", 0, v)


def _min_max(integer_op, float_op, tile_op):
    def apply(a, b):
        if _is_tile(a) or _is_tile(b):
            return _scalar_op(tile_op)(a, b) if _is_tile(a) else _scalar_op(tile_op)(b, a)
        like = (a if isinstance(a, Value) else b).type
        name = float_op if like.is_float else integer_op
        return _make(getattr(_arith, name), _as_value(a, like), _as_value(b, like))
    return apply


minimum = _min_max("minsi", "minimumf", "min")
maximum = _min_max("maxsi", "maximumf", "max")


def minui(a, b):
    """`arith.minui` of two index values (as kernels clamp row counts)."""
    return _make(_arith.minui, _as_value(a), _as_value(b))


def arith(name, *args, **kwargs):
    """Any arith op by name, numbers made index constants:
    tk.arith("maxsi", a, 0)."""
    like = next((a.type for a in args if isinstance(a, Value)), None)
    return _make(getattr(_arith, name), *[_as_value(a, like) for a in args], **kwargs)


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(name)
    if _resolve(name, (), {}) is None:
        raise AttributeError("tilekit.lang has no op %r (PTO ops: tile.*, tensor.*, "
                             "system.*)" % name)
    op = lambda *args, **kwargs: _call_op(name, *args, **kwargs)  # noqa: E731
    op.__name__ = name
    return op
