# ---------------------------------------------------------------------------
# tilekit PyTorch runtime: the semantics of the machine, as `tilekit run`
# implements them (docs/executor.md). Tiles and GM tensors are torch tensors
# carrying their valid shape in `_tilekit_valid_shape`.
# ---------------------------------------------------------------------------
import math
import threading
import time

import numpy
import torch

_DTYPES = {
    "f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
    "i1": torch.bool, "i8": torch.int8, "ui8": torch.uint8,
    "i16": torch.int16, "i32": torch.int32, "i64": torch.int64,
}
_INT_BITS = {"i1": 1, "i8": 8, "ui8": 8, "i16": 16, "i32": 32, "i64": 64}


def _valid(t):
    return getattr(t, "_tilekit_valid_shape", tuple(t.shape))


def _full_shape(t):
    return getattr(t, "_tilekit_full_shape", tuple(t.shape))


def _set_valid(t, valid):
    t._tilekit_valid_shape = tuple(int(v) for v in valid)
    t._tilekit_full_shape = tuple(t.shape)
    return t


def _like(result, src):
    return _set_valid(result, _valid(src))


def _fail(op, message):
    raise ValueError(op + ": " + message)


def _check_valid(op, valid, box):
    for v, b in zip(valid, box):
        if v < 0 or v > b:
            _fail(op, "valid shape %s does not fit the box %s"
                  % (list(valid), list(box)))


# -- scalars ----------------------------------------------------------------

def _round(value, dtype):
    """A float rounded to `dtype` (f32, f16, bf16) as the machine rounds."""
    return float(torch.tensor(value, dtype=torch.float32).to(_DTYPES[dtype])
                 .to(torch.float64)) if dtype != "f32" else \
        float(torch.tensor(value, dtype=torch.float32))


def _fdiv(a, b):
    """IEEE division: by zero gives an infinity or NaN, as on the machine."""
    if b == 0:
        if a == 0 or a != a:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def _fmod(a, b):
    return math.nan if b == 0 or math.isinf(a) else math.fmod(a, b)


def _wrap(value, dtype):
    """An integer wrapped to `dtype`'s width (index is unbounded)."""
    if dtype == "index":
        return int(value)
    bits = _INT_BITS[dtype]
    value = int(value) & ((1 << bits) - 1)
    if dtype in ("ui8", "i1"):
        return value
    return value - (1 << bits) if value >= 1 << (bits - 1) else value


def _u(value, dtype):
    """The unsigned view of an integer of `dtype`."""
    return int(value) & ((1 << _INT_BITS[dtype]) - 1)


def _divs(a, b, op="arith.divsi"):
    if b == 0:
        _fail(op, "divides by zero")
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _rems(a, b, op="arith.remsi"):
    return a - _divs(a, b, op) * b


# -- tile and tensor data movement -------------------------------------------

def _tile_load(src, offsets, shape, valid=None, op="pto.tile.load"):
    """Copies the box at `offsets`; clamps the valid shape to the data
    present and zero-pads the rest."""
    lead = src.dim() - len(shape)
    src_valid = _valid(src)
    for o, limit in zip(offsets, src_valid):
        if o < 0 or o >= limit:
            _fail(op, "offset %s is outside the tensor of shape %s"
                  % (list(offsets), list(src_valid)))
    requested = list(shape) if valid is None else list(valid)
    _check_valid(op, requested, shape)
    tile = torch.zeros(shape, dtype=src.dtype)
    present = [max(0, min(requested[d], src_valid[lead + d] - offsets[lead + d]))
               for d in range(len(shape))]
    index = tuple(offsets[:lead]) + tuple(
        slice(offsets[lead + d], offsets[lead + d] + present[d])
        for d in range(len(shape)))
    region = tuple(slice(0, p) for p in present)
    tile[region] = src[index]
    return _set_valid(tile, present)


def _tile_store(tile, dst, offsets, atomic_add=False, op="pto.tile.store"):
    """Writes the valid region of `tile` into `dst` (in place)."""
    valid = _valid(tile)
    lead = dst.dim() - tile.dim()
    for d, o in enumerate(offsets):
        extent = 1 if d < lead else valid[d - lead]
        if o < 0 or (extent > 0 and o + extent > dst.shape[d]):
            _fail(op, "writes the valid region %s at offset %s, past the end "
                  "of the tensor of shape %s"
                  % (list(valid), list(offsets), list(dst.shape)))
    index = tuple(offsets[:lead]) + tuple(
        slice(offsets[lead + d], offsets[lead + d] + valid[d])
        for d in range(tile.dim()))
    region = tile[tuple(slice(0, v) for v in valid)].to(dst.dtype)
    if atomic_add:
        dst[index] = (dst[index] + region).to(dst.dtype)
    else:
        dst[index] = region
    return dst


def _tile_create(shape, dtype, valid=None, op="pto.tile.create"):
    valid = list(shape) if valid is None else list(valid)
    _check_valid(op, valid, shape)
    return _set_valid(torch.zeros(shape, dtype=_DTYPES[dtype]), valid)


def _tile_full(shape, dtype, value, valid=None, op="pto.tile.full"):
    tile = _tile_create(shape, dtype, valid, op)
    tile.fill_(value)
    return tile


def _convert(t, dtype):
    return _like(t.to(_DTYPES[dtype]), t)


def _pad_value(mode, dtype):
    if mode in ("zero", "null"):
        return 0
    if dtype.is_floating_point:
        info = torch.finfo(dtype)
    elif dtype == torch.bool:
        return mode == "max"
    else:
        info = torch.iinfo(dtype)
    return info.min if mode == "min" else info.max


def _tile_slice(t, offsets, shape, valid=None, pad="zero",
                op="pto.tile.slice"):
    """The box at `offsets`, of the requested shape even past the edge."""
    box = t.shape
    for o, b in zip(offsets, box):
        if o < 0 or o >= b:
            _fail(op, "offset %s is outside the source box %s"
                  % (list(offsets), list(box)))
    out = torch.full(shape, _pad_value(pad, t.dtype), dtype=t.dtype)
    inside = [min(shape[d], box[d] - offsets[d]) for d in range(len(shape))]
    out[tuple(slice(0, n) for n in inside)] = t[tuple(
        slice(offsets[d], offsets[d] + inside[d]) for d in range(len(shape)))]
    if valid is None:
        src_valid = _valid(t)
        valid = [max(0, min(src_valid[d] - offsets[d], shape[d]))
                 for d in range(len(shape))]
    else:
        _check_valid(op, valid, shape)
    return _set_valid(out, valid)


def _assemble(src, dst, offsets, op="pto.tile.assemble"):
    """`dst` with the valid region of `src` written at `offsets`."""
    valid = _valid(src)
    for o, v, b in zip(offsets, valid, dst.shape):
        if o < 0 or o + v > b:
            _fail(op, "writes the valid region %s at offset %s, past the "
                  "target box %s" % (list(valid), list(offsets),
                                     list(dst.shape)))
    out = _like(dst.clone(), dst)
    out[tuple(slice(o, o + v) for o, v in zip(offsets, valid))] = \
        src[tuple(slice(0, v) for v in valid)]
    return out


def _fillpad(t, mode):
    out = torch.full(t.shape, _pad_value(mode, t.dtype), dtype=t.dtype)
    region = tuple(slice(0, v) for v in _valid(t))
    out[region] = t[region]
    return _set_valid(out, t.shape)


def _set_validshape(t, valid, op="pto.tile.set_validshape"):
    _check_valid(op, valid, t.shape)
    return _set_valid(t.view(t.shape), valid)


def _reshape(t, shape, op="pto.tile.reshape"):
    if tuple(_valid(t)) != tuple(t.shape):
        _fail(op, "reshapes a tile whose valid shape %s is not its whole box "
              "%s" % (list(_valid(t)), list(t.shape)))
    return _set_valid(t.reshape(shape), shape)


def _transpose(t):
    v = _valid(t)
    return _set_valid(t.transpose(0, 1).contiguous(), (v[1], v[0]))


def _read(t, index, op="pto.tile.read"):
    for i, b in zip(index, t.shape):
        if i < 0 or i >= b:
            _fail(op, "index %s is outside the box %s"
                  % (list(index), list(t.shape)))
    return t[tuple(index)].item()


def _write(t, index, value, op="pto.tile.write"):
    _read(t, index, op)
    out = _like(t.clone(), t)
    out[tuple(index)] = value
    return out


def _tensor_slice(t, offsets, shape, valid=None, op="pto.tensor.slice"):
    """A copy of the box at `offsets`, zero past the edge."""
    out = torch.zeros(shape, dtype=t.dtype)
    inside = [max(0, min(shape[d], t.shape[d] - offsets[d]))
              for d in range(len(shape))]
    if all(n > 0 for n in inside):
        out[tuple(slice(0, n) for n in inside)] = t[tuple(
            slice(offsets[d], offsets[d] + inside[d])
            for d in range(len(shape)))]
    src_valid = _valid(t)
    if valid is None:
        valid = [max(0, min(src_valid[d] - offsets[d], shape[d]))
                 for d in range(len(shape))]
    return _set_valid(out, valid)


def _tensor_write(dst, index, value, op="pto.tensor.write"):
    _read(dst, index, op)
    dst[tuple(index)] = value
    return dst


def _tensor_view(t, shape):
    return _set_valid(t.view(shape), shape)


def _tensor_assemble(src, dst, offsets, op="pto.tensor.assemble"):
    valid = _valid(src)
    dst[tuple(slice(o, o + v) for o, v in zip(offsets, valid))] = \
        src[tuple(slice(0, v) for v in valid)].to(dst.dtype)
    return dst


# -- addressed tiles ----------------------------------------------------------
# Tiles with an address live in a byte pool, one per memory space and
# function invocation, laid out as on the machine (fractal blocks included):
# every definition writes its bytes, every use reads them back, so tiles
# whose address ranges overlap alias (lib/Interp/BytePool.cpp).

_ELEMENT_BYTES = {"f32": 4, "f16": 2, "bf16": 2, "i1": 1, "i8": 1, "ui8": 1,
                  "i16": 2, "i32": 4, "i64": 8}


def _physical_offsets(shape, dtype, blayout, slayout, fractal):
    """The byte offset of each element (in row-major order) from the tile's
    address."""
    size = _ELEMENT_BYTES[dtype]
    if len(shape) != 2:
        return torch.arange(math.prod(shape)) * size
    rows, cols = shape
    r = torch.arange(rows).repeat_interleave(cols)
    c = torch.arange(cols).repeat(rows)
    if slayout == "none_box":
        linear = r * cols + c if blayout == "row_major" else c * rows + r
        return linear * size
    # A fractal is 16 rows of (fractal / 16) bytes, or transposed for a
    # column-major inner layout.
    span = max(1, fractal // 16 // size)
    br, bc = (span, 16) if slayout == "col_major" else (16, span)
    grid_rows, grid_cols = -(-rows // br), -(-cols // bc)
    block = ((r // br) * grid_cols + c // bc) if blayout == "row_major" \
        else ((c // bc) * grid_rows + r // br)
    inner = ((r % br) * bc + c % bc) if slayout == "row_major" \
        else ((c % bc) * br + r % br)
    return (block * br * bc + inner) * size


class _BytePools:
    def __init__(self):
        self._pools = {}
        self._offsets = {}

    def _bytes(self, space, addr, dtype, layout, shape):
        key = (tuple(shape), dtype) + tuple(layout)
        if key not in self._offsets:
            offsets = _physical_offsets(list(shape), dtype, *layout)
            size = _ELEMENT_BYTES[dtype]
            self._offsets[key] = (
                offsets[:, None] + torch.arange(size)).reshape(-1)
        index = self._offsets[key] + addr
        end = int(index.max()) + 1 if index.numel() else 0
        pool = self._pools.get(space)
        if pool is None or pool.numel() < end:
            grown = torch.zeros(end, dtype=torch.uint8)
            if pool is not None:
                grown[:pool.numel()] = pool
            self._pools[space] = pool = grown
        return pool, index

    def store(self, t, space, addr, dtype, layout):
        """Writes the whole box of `t` at `addr`; returns `t`."""
        pool, index = self._bytes(space, addr, dtype, layout, t.shape)
        pool[index] = t.contiguous().reshape(-1).view(torch.uint8)
        return t

    def load(self, t, space, addr, dtype, layout):
        """What the bytes at `addr` hold now, with `t`'s box and valid shape."""
        pool, index = self._bytes(space, addr, dtype, layout, t.shape)
        data = pool[index].view(_DTYPES[dtype]).reshape(t.shape).clone()
        return _like(data, t)


# -- compute --------------------------------------------------------------------

def _in_f32(fn, *operands):
    """`fn` of 16-bit float operands computed in f32 and rounded once, as
    the vector unit does (and torch's CPU kernels lack some 16-bit ops)."""
    dtype = operands[0].dtype
    if dtype not in (torch.float16, torch.bfloat16):
        return fn(*operands)
    return fn(*(o.to(torch.float32) for o in operands)).to(dtype)


def _binary(fn, a, b):
    return _like(_in_f32(fn, a, b), a)


def _scalar(t, s):
    """A scalar converted to the elements' type first."""
    return torch.tensor(s, dtype=torch.float64).to(t.dtype) \
        if t.dtype.is_floating_point else torch.tensor(int(s)).to(t.dtype)


def _binary_scalar(fn, t, s):
    return _like(_in_f32(fn, t, _scalar(t, s)), t)


def _in_valid(t):
    mask = torch.zeros(t.shape, dtype=torch.bool)
    mask[tuple(slice(0, v) for v in _valid(t))] = True
    return mask


def _div(a, b, op):
    """Truncating division; an integer divisor of zero is an error in the
    valid region and gives 0 outside it, and the minimum divided by -1 wraps
    to the minimum (MachineArith.h)."""
    if a.dtype.is_floating_point:
        return a / b
    zero = (b == 0)
    if bool((zero & _in_valid(a)).any()):
        _fail(op, "divides by zero in the valid region")
    # Divide in int64 (torch would trap on the minimum / -1) and wrap.
    a64, b64 = a.to(torch.int64), torch.where(zero, torch.ones_like(b), b)
    b64 = b64.to(torch.int64)
    minus_one = b64 == -1
    q = torch.div(a64, torch.where(minus_one, torch.ones_like(b64), b64),
                  rounding_mode="trunc")
    q = torch.where(minus_one, -a64, q)
    return torch.where(zero, torch.zeros_like(q), q).to(a.dtype)


def _rem(a, b, op):
    if a.dtype.is_floating_point:
        # C's fmod, exact (torch's kernel divides and loses it).
        def fmod(x, y):
            with numpy.errstate(invalid="ignore"):
                return torch.from_numpy(
                    numpy.fmod(x.numpy(), y.expand_as(x).numpy()))
        return _in_f32(fmod, a, b)
    q = _div(a, b, op).to(torch.int64)
    return (a.to(torch.int64) - q * b.to(torch.int64)).to(a.dtype)


def _shl(a, b):
    """Shift amounts outside [0, 64) give 0; narrower elements are shifted
    as 64-bit values and wrapped, so amounts past their width give 0 too."""
    b64 = b.to(torch.int64)
    out = torch.bitwise_left_shift(a.to(torch.int64), b64.clamp(0, 63))
    return torch.where((b64 < 0) | (b64 > 63), torch.zeros_like(out),
                       out).to(a.dtype)


def _shr(a, b):
    """Arithmetic shift right; amounts outside [0, 64) give the sign."""
    a64, b64 = a.to(torch.int64), b.to(torch.int64)
    out = torch.bitwise_right_shift(a64, b64.clamp(0, 63))
    sign = torch.where(a64 < 0, torch.full_like(a64, -1),
                       torch.zeros_like(a64))
    return torch.where((b64 < 0) | (b64 > 63), sign, out).to(a.dtype)


def _maxnum(a, b):
    """The vector unit's Max: a NaN operand is ignored, +0 > -0."""
    if not a.dtype.is_floating_point:
        return torch.maximum(a, b)
    b = b.expand_as(a)
    r = torch.where(b > a, b, a)
    r = torch.where((a == b) & torch.signbit(a), b, r)
    r = torch.where(torch.isnan(b), a, r)
    return torch.where(torch.isnan(a), b, r)


def _minnum(a, b):
    """The vector unit's Min: a NaN operand is ignored, -0 < +0."""
    if not a.dtype.is_floating_point:
        return torch.minimum(a, b)
    b = b.expand_as(a)
    r = torch.where(b < a, b, a)
    r = torch.where((a == b) & ~torch.signbit(a), b, r)
    r = torch.where(torch.isnan(b), a, r)
    return torch.where(torch.isnan(a), b, r)


def _maximumf(a, b):
    """arith.maximumf: NaN-propagating, +0 > -0."""
    if a != a or b != b:
        return math.nan
    if a == b:
        return b if math.copysign(1.0, a) < 0 else a
    return max(a, b)


def _minimumf(a, b):
    if a != a or b != b:
        return math.nan
    if a == b:
        return a if math.copysign(1.0, a) < 0 else b
    return min(a, b)


def _maxnumf(a, b):
    """arith.maxnumf: a NaN operand is ignored, +0 > -0."""
    return a if b != b else b if a != a else _maximumf(a, b)


def _minnumf(a, b):
    return a if b != b else b if a != a else _minimumf(a, b)


def _shift_scalar(a, b, left, dtype):
    """Scalar shifts with the tile shifts' rules for the amount."""
    if b < 0 or b > 63:
        return 0 if left or a >= 0 else -1
    return _wrap(a << b if left else a >> b, dtype)


def _fptoi(value, dtype, unsigned=False):
    """Float to integer: truncates, saturates, NaN becomes 0."""
    if value != value:
        return 0
    bits = _INT_BITS[dtype] if dtype != "index" else 64
    low = 0 if unsigned else -(1 << (bits - 1))
    high = (1 << bits) - 1 if unsigned else (1 << (bits - 1)) - 1
    if math.isinf(value):
        return _wrap(high if value > 0 else low, dtype)
    return _wrap(min(max(int(value), low), high), dtype)


def _not(t):
    return torch.logical_not(t) if t.dtype == torch.bool \
        else torch.bitwise_not(t)


def _relu(t):
    """max(t, 0) with the vector unit's Max: NaN and -0 give +0."""
    return torch.clamp(t, min=0) if not t.dtype.is_floating_point \
        else _maxnum(t, torch.zeros_like(t))


def _unary(fn, t):
    return _like(_in_f32(fn, t), t)


def _cast(t, dtype, mode="none"):
    """Converts elements with the cast's rounding mode."""
    target = _DTYPES[dtype]
    if t.dtype.is_floating_point and not target.is_floating_point:
        x = t.to(torch.float64)
        if mode in ("none", "rint"):
            x = torch.round(x)  # ties to even
        elif mode == "round":
            x = torch.sign(x) * torch.floor(torch.abs(x) + 0.5)
        elif mode == "floor":
            x = torch.floor(x)
        elif mode == "ceil":
            x = torch.ceil(x)
        else:
            x = torch.trunc(x)
        info = torch.iinfo(target) if target != torch.bool else None
        x = torch.nan_to_num(x, nan=0.0)
        if info is not None:
            x = torch.clamp(x, info.min, info.max)
        return _like(x.to(target), t)
    if target in (torch.float16, torch.bfloat16) and mode not in ("none",
                                                                  "rint"):
        return _like(_round16(t.to(torch.float32), target, mode), t)
    return _like(t.to(target), t)


def _round16(x, target, mode):
    """f32 to a 16-bit float with a directed or odd rounding."""
    nearest = x.to(target)
    back = nearest.to(torch.float32)
    bits = nearest.view(torch.int16).to(torch.int32)
    neg = bits < 0
    up = torch.where(neg, bits - 1, bits + 1)
    down = torch.where(neg, bits + 1, bits - 1)
    zero = (bits & 0x7fff) == 0
    up = torch.where(zero, torch.where(neg, torch.full_like(bits, 1),
                                       torch.full_like(bits, 1)), up)
    down = torch.where(zero, torch.full_like(bits, -32767), down)

    def from_bits(b):
        return b.to(torch.int16).view(target).to(torch.float32)

    low = torch.where(back < x, back, from_bits(down))
    high = torch.where(back < x, from_bits(up), back)
    low_bits = torch.where(back < x, bits, down)
    if mode == "floor":
        out = low
    elif mode == "ceil":
        out = high
    elif mode == "trunc":
        out = torch.where(x > 0, low, high)
    elif mode == "round":
        tie = (x - low) == (high - x)
        out = torch.where(tie, torch.where(x > 0, high, low), back)
    else:  # odd
        out = torch.where((low_bits & 1) == 1, low, high)
    exact = (back == x) | torch.isnan(x) | torch.isinf(back)
    return torch.where(exact, back, out).to(target)


_CMP = {"eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le,
        "gt": torch.gt, "ge": torch.ge}


def _cmp(pred, a, b):
    return _like(_CMP[pred](a, b), a)


def _cmps(pred, t, s):
    return _like(_CMP[pred](t, _scalar(t, s)), t)


def _reg_scope(captures, addrs, program, yields):
    """A register scope (pto.reg_scope): `program` runs over 64-lane f32
    registers on the captured tiles' elements, laid out by UB address, so
    that captures whose addresses overlap share elements (a tile captured
    twice is one storage). Each step is (kind, result, operands...); tiles
    and scalars are named by capture index, registers and masks by number.
    Returns the yielded tiles (docs/vector-functions.md)."""
    end = max([a // 4 + captures[c].numel() for c, a in enumerate(addrs)
               if a is not None and torch.is_tensor(captures[c])], default=0)
    origins, seen = {}, {}
    for c, (t, a) in enumerate(zip(captures, addrs)):
        if not torch.is_tensor(t):
            continue
        if a is not None:
            origins[c] = a // 4
        elif id(t) in seen:
            origins[c] = seen[id(t)]
        else:
            origins[c] = seen[id(t)] = end
            end += t.numel()
    mem = torch.zeros(end, dtype=torch.float32)
    for c, o in origins.items():
        mem[o:o + captures[c].numel()] = captures[c].reshape(-1)
    lanes = torch.arange(64)
    regs = {}
    for step in program:
        kind, d = step[0], step[1]
        if kind == "load":
            at = origins[step[2]] + step[3]
            regs[d] = mem[at:at + 64].clone()
        elif kind == "store":
            at = origins[step[2]] + step[3]
            value = regs[step[4]]
            if step[5] is not None:
                value = torch.where(regs[step[5]], value, mem[at:at + 64])
            mem[at:at + 64] = value
        elif kind in ("add", "sub", "mul", "div"):
            a, b = regs[step[2]], regs[step[3]]
            regs[d] = {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b}[kind]
        elif kind == "max":
            a, b = regs[step[2]], regs[step[3]]
            regs[d] = torch.where(a > b, a, b)
        elif kind == "min":
            a, b = regs[step[2]], regs[step[3]]
            regs[d] = torch.where(a < b, a, b)
        elif kind == "broadcast":
            regs[d] = torch.full((64,), float(captures[step[2]]), dtype=torch.float32)
        elif kind == "cmp":
            regs[d] = _CMP[step[2]](regs[step[3]], regs[step[4]])
        elif kind == "select":
            regs[d] = torch.where(regs[step[2]], regs[step[3]], regs[step[4]])
        elif kind == "prefix":
            regs[d] = lanes < step[2]
        elif kind == "suffix":
            regs[d] = lanes >= 64 - step[2]
        elif kind == "runtime":
            regs[d] = lanes + step[3] < int(captures[step[2]])
    out = [_like(mem[origins[c]:origins[c] + captures[c].numel()]
                 .reshape(captures[c].shape).clone(), captures[c]) for c in yields]
    return out[0] if len(out) == 1 else tuple(out)


def _sel(mask, a, b):
    return _like(torch.where(mask, a, b), a)


def _sels(mask, t, s):
    return _like(torch.where(mask, t, _scalar(t, s)), t)


def _fold(kind, x, dim):
    """Reduces `x` along `dim` as the executor folds floats: a tree that
    halves the line each step, element i taking in element i + ceil(n / 2)
    (the same f32 operations in the same order, so sums agree to the bit).
    max and min, and integers in int64, do not depend on the order."""
    if not x.dtype.is_floating_point:
        fn = {"sum": torch.sum, "prod": torch.prod, "max": torch.amax,
              "min": torch.amin}[kind]
        return fn(x, dim=dim, keepdim=True)
    if kind in ("max", "min"):
        return _fold_extreme(kind == "max", x, dim)
    step = torch.add if kind == "sum" else torch.mul
    n = x.shape[dim]
    while n > 1:
        half = (n + 1) // 2
        pairs = n - half
        head = step(x.narrow(dim, 0, pairs), x.narrow(dim, half, pairs))
        x = torch.cat([head, x.narrow(dim, pairs, half - pairs)], dim=dim)
        n = half
    return x.narrow(dim, 0, 1)


def _fold_extreme(is_max, x, dim):
    """max/min with the elementwise rules in one pass: they do not depend on
    the order (NaN ignored unless all are NaN, -0 below +0)."""
    nan = torch.isnan(x)
    filled = torch.where(nan, torch.full_like(x, -math.inf if is_max
                                              else math.inf), x)
    m = (torch.amax if is_max else torch.amin)(filled, dim=dim, keepdim=True)
    # Which zero: +0 for max when any +0 is there, -0 for min when any -0.
    wanted = (x == 0) & (torch.signbit(x) != is_max)
    present = wanted.any(dim=dim, keepdim=True)
    zero = torch.zeros_like(m)
    signed = zero if is_max else -zero
    other = -zero if is_max else zero
    m = torch.where(m == 0, torch.where(present, signed, other), m)
    return torch.where(nan.all(dim=dim, keepdim=True),
                       torch.full_like(m, math.nan), m)


def _reduce(kind, t, row):
    """Folds the valid region along the last (row) or second-to-last
    (column) dimension; f32 accumulation, one rounding."""
    valid = list(_valid(t))
    dim = -1 if row else -2
    region = t[tuple(slice(0, v) for v in valid)]
    shape = list(t.shape)
    shape[dim] = 1
    out = torch.zeros(shape, dtype=t.dtype)
    out_valid = list(valid)
    out_valid[dim] = 1
    if region.numel() > 0:
        acc = region.to(torch.float32) if t.dtype.is_floating_point \
            else region.to(torch.int64)
        folded = _fold(kind, acc, dim).to(t.dtype)
        out[tuple(slice(0, v) for v in out_valid)] = folded
    return _set_valid(out, out_valid)


def _sigmoid(t):
    """1 / (1 + exp(-t)) in f32, as the executor computes it."""
    return 1.0 / (1.0 + torch.exp(-t))


# -- index sequences, scans, selection, sorting ------------------------------

def _iota(shape, dtype, start, descending=False):
    """Every row gets start + j in column j (start - j when descending)."""
    cols = torch.arange(shape[-1], dtype=torch.float64 if dtype in
                        ("f32", "f16", "bf16") else torch.int64)
    values = start - cols if descending else start + cols
    if dtype in _INT_BITS:
        bits = _INT_BITS[dtype]
        values = ((values + (1 << (bits - 1))) % (1 << bits)) - (1 << (bits - 1))
    else:
        values = values.to(torch.float32)
    return _set_valid(values.expand(shape).contiguous().to(_DTYPES[dtype]),
                      shape)


def _cumsum(t, row):
    """Inclusive prefix sums over the valid region, in order (f32 or
    wrapping int64); the padding is zero."""
    rows, cols = _valid(t)
    out = torch.zeros(t.shape, dtype=t.dtype)
    region = t[:rows, :cols]
    if not row:
        region = region.t()
    acc = None
    steps = []
    for k in range(region.shape[1]):
        x = region[:, k].to(torch.float32 if t.dtype.is_floating_point
                            else torch.int64)
        acc = x if acc is None else acc + x
        steps.append(acc)
    if steps:
        done = torch.stack(steps, dim=1)
        out[:rows, :cols] = (done if row else done.t()).to(t.dtype)
    return _like(out, t)


def _row_arg(kind, t):
    """The max (min) of each valid row and the first column whose element
    equals it (-0 equals +0; a row of NaN gives column 0), as the executor
    finds it."""
    rows, cols = _valid(t)
    values = torch.zeros((t.shape[0], 1), dtype=t.dtype)
    indices = torch.zeros((t.shape[0], 1), dtype=torch.int32)
    if rows and cols:
        floating = t.dtype.is_floating_point
        x = t[:rows, :cols].to(torch.float32 if floating else torch.int64)
        best, at = x[:, 0].clone(), torch.zeros(rows, dtype=torch.int32)
        step = {"max": _maxnum, "min": _minnum}[kind]
        for c in range(1, cols):
            if floating:
                best = step(best, x[:, c])
            else:
                changed = x[:, c] > best if kind == "max" else x[:, c] < best
                best = torch.where(changed, x[:, c], best)
                at = torch.where(changed, torch.full_like(at, c), at)
        if floating:
            same = x == best[:, None]
            at = torch.where(same.any(1), same.int().argmax(1),
                             torch.zeros_like(at)).to(torch.int32)
        values[:rows, 0] = best.to(t.dtype)
        indices[:rows, 0] = at
    return (_set_valid(values, (rows, 1)), _set_valid(indices, (rows, 1)))


def _sort32(t, op):
    """Each 32-column block of every valid row sorted descending (NaN
    first, ties by index), with the column indices."""
    rows, cols = _valid(t)
    if cols % 32:
        _fail(op, "sorts blocks of 32 columns, but the valid shape %s has a "
              "partial block; pad the row (for example with "
              "pto.tile.fillpad min)" % [rows, cols])
    values = torch.zeros(t.shape, dtype=t.dtype)
    indices = torch.zeros(t.shape, dtype=torch.int32)
    if rows and cols:
        x = t[:rows, :cols].to(torch.float32).reshape(rows, cols // 32, 32)
        order = _stable_order(x)
        columns = torch.arange(cols, dtype=torch.int32).reshape(1, -1, 32)
        values[:rows, :cols] = torch.gather(x, 2, order).reshape(
            rows, cols).to(t.dtype)
        indices[:rows, :cols] = torch.gather(
            columns.expand(rows, -1, -1), 2, order).reshape(rows, cols)
    return (_like(values, t), _like(indices, t))


def _stable_order(x):
    """The order of Ascend's Sort32 along the last dimension: descending,
    NaN first, equal values (-0 and +0 too) in index order. Two stable
    passes: by value, then NaN before the rest."""
    key = torch.where(torch.isnan(x), torch.zeros_like(x), -x)
    key = torch.where(key == 0, torch.zeros_like(key), key)
    order = torch.sort(key, dim=-1, stable=True).indices
    numbers = (~torch.isnan(x)).to(torch.int8).gather(-1, order)
    return order.gather(-1, torch.sort(numbers, dim=-1, stable=True).indices)


def _mrgsort(values, indices, block, op):
    """Merges each pair of sorted runs of `block` columns of every valid
    row (a tie takes the left run's element)."""
    rows, cols = _valid(values)
    out_v = torch.zeros(values.shape, dtype=values.dtype)
    out_i = torch.zeros(indices.shape, dtype=indices.dtype)
    x = values[:rows, :cols].to(torch.float32)
    for r in range(rows):
        row = x[r]
        for c in range(1, cols):
            a, b = float(row[c - 1]), float(row[c])
            if c % block and ((b != b and a == a) or b > a):
                _fail(op, "merges runs of %d columns, but in row %d column %d "
                      "(%g) ranks above column %d (%g): the run is not sorted"
                      % (block, r, c, b, c - 1, a))
    for begin in range(0, cols, 2 * block):
        end = min(begin + 2 * block, cols)
        chunk = x[:, begin:end]
        order = _stable_order(chunk)
        out_v[:rows, begin:end] = torch.gather(chunk, 1, order).to(values.dtype)
        out_i[:rows, begin:end] = torch.gather(
            indices[:rows, begin:end], 1, order)
    return (_like(out_v, values), _like(out_i, indices))


def _gather(src, indices):
    """result[i, j] = src.flat[indices[i, j]] over the indices' valid region;
    an index outside the box gives 0."""
    flat = src.reshape(-1)
    idx = indices.to(torch.int64)
    inside = (idx >= 0) & (idx < flat.numel()) & _in_valid(indices)
    out = torch.where(inside, flat[idx.clamp(0, flat.numel() - 1)],
                      torch.zeros((), dtype=src.dtype))
    return _like(out, indices)


def _scatter(src, indices, dst):
    """dst with dst[indices[i, j], j] = src[i, j] over src's valid region, in
    row-major order (later writes win); rows outside the tile write
    nothing."""
    out = dst.clone()
    rows, cols = _valid(src)
    for i in range(rows):
        for j in range(cols):
            to = int(indices[i, j])
            if 0 <= to < out.shape[0]:
                out[to, j] = src[i, j]
    return _like(out, dst)


def _expand(t, shape, row):
    v = _valid(t)
    out = t.expand(shape).contiguous()
    return _set_valid(out, (v[0], shape[1]) if row else (shape[0], v[1]))


def _expand_binary(fn, a, b):
    return _like(fn(a, b.expand_as(a)), a)


def _expdif(a, b):
    """exp(a - b) computed in f32 and rounded once, like the vector unit."""
    r = torch.exp(a.to(torch.float32) - b.expand_as(a).to(torch.float32))
    return _like(r.to(a.dtype), a)


def _matmul(a, b, out_dtype, k=None):
    """A @ B accumulated in f32 (i32 for i8) over A's valid K (or `k`), as
    the MMAD's k is; valid rows of A, columns of B."""
    valid = list(_valid(a))
    valid[-1] = _valid(b)[-1]
    k = _valid(a)[-1] if k is None else k
    a, b = a[..., :k], b[..., :k, :]
    if a.dtype.is_floating_point:
        r = torch.matmul(a.to(torch.float32), b.to(torch.float32))
    else:
        r = torch.matmul(a.to(torch.int64), b.to(torch.int64))
    r = r.to(_DTYPES[out_dtype])
    return _set_valid(r, valid)


def _accumulate(acc, product):
    """acc + A @ B, in the accumulator's type."""
    return _like((acc + product).to(acc.dtype), product)


def _acc_init(acc, product, init):
    """An accumulating matmul: overwrite where `init` holds, else add."""
    return product if init else _accumulate(acc, product)


def _matmul_bias(a, b, bias, out_dtype):
    r = _matmul(a, b, out_dtype)
    return _like((r + bias[0].to(r.dtype)).to(r.dtype), r)


def _tensor_matmul(a, b, out_dtype, a_trans=False, b_trans=False):
    if a_trans:
        a = a.transpose(-1, -2)
    if b_trans:
        b = b.transpose(-1, -2)
    r = _matmul(a, b, out_dtype, k=a.shape[-1])
    return _set_valid(r, r.shape)


# -- cross-core runtime -------------------------------------------------------

_PIPE_WAIT_TIMEOUT_SEC = 10.0
_MIXED_KERNEL_TIMEOUT_SEC = 30.0
_GROUP_META = {}
_THREAD = threading.local()
_BLOCK = {"idx": 0, "num": 1}


def _get_subblock_idx():
    return getattr(_THREAD, "subblock_idx", 0)


# _SPLIT_CODES (written above by the emitter from the machine description)
# maps each split code to (the dimension it cuts or None, whether it is odd).
def _split_mode_to_int(split):
    try:
        code = int(split)
    except (TypeError, ValueError):
        raise ValueError("invalid split mode %r" % (split,))
    if code not in _SPLIT_CODES:
        raise ValueError("invalid split mode %r (expected one of %s)"
                         % (split, sorted(_SPLIT_CODES)))
    return code


def _split_axis(code):
    return _SPLIT_CODES[code][0]


def _is_odd_split(code):
    return _SPLIT_CODES[code][1]


def _split_tile(t, code, lane_stride=None, op="pto.tile.tpush_to_aiv"):
    """Cuts the box at its half (or an odd code at lane_stride); each lane
    keeps the part of the valid region in its box, possibly none."""
    axis = _split_axis(code)
    valid = list(_valid(t))
    box, extent = t.shape[axis], valid[axis]
    cut = lane_stride if lane_stride is not None else box // 2
    extents = [min(extent, cut), max(0, extent - cut)]
    if _is_odd_split(code) and extents[0] != extents[1] + 1:
        raise ValueError(
            "%s: split code %d needs lane 0 to hold exactly one valid cell "
            "more than lane 1 along dim %d, but the valid extent %d cut at %d "
            "(%s) gives lane 0 %d and lane 1 %d"
            % (op, code, axis, extent, cut,
               "lane_stride" if lane_stride is not None else "the box half",
               extents[0], extents[1]))
    lanes = []
    for part, lane_extent in zip(torch.split(t, [cut, box - cut], dim=axis),
                                 extents):
        v = list(valid)
        v[axis] = lane_extent
        lanes.append(_set_valid(part.contiguous(), v))
    return lanes


def _merge_tiles(lane0, lane1, code, op="pto.tile.tpop_from_aiv"):
    """The inverse of the split: lane 1's valid region continues lane 0's."""
    axis, other = _split_axis(code), 1 - _split_axis(code)
    v0, v1 = list(_valid(lane0)), list(_valid(lane1))
    lanes = "lane 0's valid shape %s and lane 1's %s" % (v0, v1)
    if v1[axis] > 0 and v0[axis] != lane0.shape[axis]:
        raise ValueError(
            "%s: merges %s along dim %d: lane 1 holds valid data but lane 0 "
            "is not full (box %d), so the merged valid region would not be "
            "contiguous" % (op, lanes, axis, lane0.shape[axis]))
    if v1[axis] > 0 and v0[other] != v1[other]:
        raise ValueError(
            "%s: merges %s along dim %d: their valid extents along dim %d "
            "differ, so the merged valid region would not be a rectangle"
            % (op, lanes, axis, other))
    v0[axis] += v1[axis]
    return _set_valid(torch.cat([lane0, lane1], dim=axis), v0)


def _receive(t, shape, dtype, op):
    """A received tile in the pop's result box."""
    valid = _valid(t)
    for v, b in zip(valid, shape):
        if v > b:
            raise ValueError("%s: receives a tile whose valid shape %s does "
                             "not fit %s" % (op, list(valid), list(shape)))
    out = torch.zeros(shape, dtype=_DTYPES[dtype])
    region = tuple(slice(0, min(a, b)) for a, b in zip(t.shape, shape))
    out[region] = t[region].to(out.dtype)
    return _set_valid(out, valid)


class _CrossCoreRuntime:
    """Blocking queues between the cube core and its vector lanes."""

    def __init__(self):
        self._cond = threading.Condition()
        self.reset()

    def reset(self, no_split_dual_aiv_dispatch=False, cores=0):
        with self._cond:
            self._queues = {}
            self._dual = no_split_dual_aiv_dispatch
            self._cancelled = False
            # Cores still running, and what each blocked one waits for: when
            # every running core waits for a queue nobody can fill, the group
            # is deadlocked.
            self._running = cores
            self._waiters = {}
            self._cond.notify_all()

    def core_finished(self):
        with self._cond:
            self._running -= 1
            self._cond.notify_all()

    def cancel(self):
        with self._cond:
            self._cancelled = True
            self._cond.notify_all()

    def snapshot(self):
        with self._cond:
            depths = {key: len(q) for key, q in self._queues.items()}
        return {"no_split_dual_aiv_dispatch": self._dual, "queues": depths}

    def _queue(self, key):
        return self._queues.setdefault(key, [])

    def _push(self, key, tile):
        with self._cond:
            self._queue(key).append(tile)
            self._cond.notify_all()

    def _ready(self, keys):
        return all(self._queue(k) for k in keys)

    def _deadlocked(self):
        return (self._running > 0 and len(self._waiters) == self._running
                and not any(self._ready(w[0]) for w in self._waiters.values()))

    def _wait(self, keys, op, split):
        deadline = time.monotonic() + _PIPE_WAIT_TIMEOUT_SEC
        me = threading.current_thread()
        self._waiters[me] = (keys, op, split, _get_subblock_idx())
        try:
            while not self._ready(keys):
                if self._cancelled:
                    raise RuntimeError("%s: cancelled" % op)
                if self._deadlocked():
                    raise RuntimeError(
                        "%s: deadlock, every running core waits: %s; "
                        "queues: %s"
                        % (op, "; ".join(
                            "%s in %s (split %d, lane %d)"
                            % (t.name, w[1], w[2], w[3])
                            for t, w in self._waiters.items()),
                           {k: len(q) for k, q in self._queues.items()}))
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise RuntimeError(
                        "%s: pipe wait timeout (split %d, lane %d); queues: %s"
                        % (op, split, _get_subblock_idx(),
                           {k: len(q) for k, q in self._queues.items()}))
                self._cond.wait(remaining)
            return [self._queue(k).pop(0) for k in keys]
        finally:
            del self._waiters[me]

    def push_to_aiv(self, tile, split, lane_stride=None, pipe=0):
        code = _split_mode_to_int(split)
        if code == 0 and not self._dual:
            self._push(("to_aiv", pipe), tile)
        elif code == 0:
            self._push(("to_aiv_dual", pipe, 0), tile)
            self._push(("to_aiv_dual", pipe, 1), tile.clone())
        else:
            for lane, part in enumerate(_split_tile(tile, code, lane_stride)):
                self._push(("to_aiv_split", pipe, code, lane), part)

    def pop_from_aic(self, split, shape, dtype, pipe=0):
        code = _split_mode_to_int(split)
        lane = _get_subblock_idx()
        key = ("to_aiv", pipe) if code == 0 and not self._dual else (
            ("to_aiv_dual", pipe, lane) if code == 0
            else ("to_aiv_split", pipe, code, lane))
        with self._cond:
            (tile,) = self._wait([key], "pto.tile.tpop_from_aic", code)
        return _receive(tile, shape, dtype, "pto.tile.tpop_from_aic")

    def push_to_aic(self, tile, split, pipe=0):
        code = _split_mode_to_int(split)
        if _is_odd_split(code):
            raise ValueError("pto.tile.tpush_to_aic: split code %d is odd, but "
                             "there is no odd vector-to-cube transport" % code)
        lane = _get_subblock_idx()
        key = ("to_aic", pipe) if code == 0 and not self._dual else (
            ("to_aic_dual", pipe, lane) if code == 0
            else ("to_aic_split", pipe, code, lane))
        self._push(key, tile)

    def pop_from_aiv(self, split, shape, dtype, pipe=0):
        code = _split_mode_to_int(split)
        if _is_odd_split(code):
            raise ValueError("pto.tile.tpop_from_aiv: split code %d is odd"
                             % code)
        op = "pto.tile.tpop_from_aiv"
        with self._cond:
            if code == 0 and not self._dual:
                (tile,) = self._wait([("to_aic", pipe)], op, code)
            elif code == 0:
                tile, _ = self._wait([("to_aic_dual", pipe, 0),
                                      ("to_aic_dual", pipe, 1)], op, code)
            else:
                pair = self._wait([("to_aic_split", pipe, code, 0),
                                   ("to_aic_split", pipe, code, 1)], op, code)
                tile = None
        if tile is None:
            tile = _merge_tiles(pair[0], pair[1], code, op)
        return _receive(tile, shape, dtype, op)


_cross_core_rt = _CrossCoreRuntime()


def _run_group_call(name, *args):
    meta = _GROUP_META[name]
    return _run_mixed_kernels(name, meta, *args)


def _run_mixed_kernels(name, meta, *args):
    """Runs the cube function on one thread and the vector function on one
    or two lanes; returns vector lane 0's result."""
    split, dual = meta["split"], meta["dual_aiv_dispatch"]
    lanes = 2 if split != 0 or dual else 1
    _cross_core_rt.reset(no_split_dual_aiv_dispatch=(split == 0 and dual),
                         cores=1 + lanes)
    results, errors = {}, []
    aic, aiv = globals()[meta["aic"]], globals()[meta["aiv"]]

    def run(role, lane, fn):
        _THREAD.subblock_idx = lane
        try:
            results[(role, lane)] = fn(*args)
        except BaseException as error:  # the first failure stops the group
            errors.append((role, lane, error))
            _cross_core_rt.cancel()
        finally:
            _cross_core_rt.core_finished()

    # Daemon threads: a core still computing after a timeout must not keep
    # the interpreter alive once the error has been raised.
    threads = [threading.Thread(target=run, args=("aic", 0, aic),
                                name="%s aic" % meta["aic"], daemon=True)]
    threads += [threading.Thread(target=run, args=("aiv", lane, aiv),
                                 name="%s aiv lane %d" % (meta["aiv"], lane),
                                 daemon=True)
                for lane in range(lanes)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + _MIXED_KERNEL_TIMEOUT_SEC
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    alive = [t.name for t in threads if t.is_alive()]
    if alive:
        _cross_core_rt.cancel()
        raise RuntimeError("group %s timed out; alive: %s; pipes: %s"
                           % (name, alive, _cross_core_rt.snapshot()))
    if errors:
        real = [e for e in errors if not str(e[2]).endswith("cancelled")]
        role, lane, error = (real or errors)[0]
        raise RuntimeError("group %s failed in %s %s lane %d: %s"
                           % (name, role, meta[role], lane, error)) from error
    for (role, lane), value in results.items():
        if (role, lane) != ("aiv", 0) and value is not None:
            raise RuntimeError("group %s: %s lane %d returned a value; only "
                               "vector lane 0 may" % (name, role, lane))
    return results.get(("aiv", 0))


# -- shape checks (--check-shapes) -------------------------------------------

def _check_dtype(value, dtype, name):
    if isinstance(value, torch.Tensor) and value.dtype != _DTYPES[dtype]:
        raise TypeError("%s: expected %s, got %s" % (name, dtype, value.dtype))


def _check_shape(value, dtype, shape, name):
    _check_dtype(value, dtype, name)
    if value.dim() != len(shape):
        raise TypeError("%s: expected rank %d, got %d"
                        % (name, len(shape), value.dim()))
    for d, extent in enumerate(shape):
        if extent is not None and value.shape[d] != extent:
            raise TypeError("%s: expected dim %d to be %d, got %d"
                            % (name, d, extent, value.shape[d]))


def _main(functions, default):
    """`python3 SCRIPT --input x=x.npy ... [--output y=y.npy]`: runs one
    function of the script on .npy files and numbers, writes the tensors
    named by --output after the run (arguments are updated in place; the
    results are `result`, or `result0`, `result1`, ...) and otherwise prints
    a summary of each result."""
    import argparse
    import inspect
    parser = argparse.ArgumentParser(
        description="Runs a function of this tilekit-generated script.")
    parser.add_argument("--entry", default=default, choices=sorted(functions),
                        help="the function to run (default: %(default)s)")
    parser.add_argument("--input", action="append", default=[],
                        metavar="NAME=VALUE",
                        help="an argument: FILE.npy, zeros:SHAPE:TYPE "
                             "(SHAPE like 4x8) or a number")
    parser.add_argument("--output", action="append", default=[],
                        metavar="NAME=FILE.npy",
                        help="write an argument tensor after the run, or a "
                             "result (result, result0, ...)")
    args = parser.parse_args()
    if args.entry is None:
        parser.error("--entry is needed: the script has several functions")
    fn = functions[args.entry]
    names = list(inspect.signature(fn).parameters)
    values = {}
    for spec in args.input:
        name, _, value = spec.partition("=")
        if name not in names:
            parser.error("--input %s: %s takes %s" % (name, args.entry,
                                                     ", ".join(names)))
        if value.endswith(".npy"):
            values[name] = torch.from_numpy(numpy.load(value).copy())
        elif value.startswith("zeros:"):
            _, shape, dtype = value.split(":")
            values[name] = torch.zeros([int(d) for d in shape.split("x")],
                                       dtype=_DTYPES[dtype])
        else:
            values[name] = float(value) if any(c in value for c in ".en") \
                else int(value)
    missing = [n for n in names if n not in values]
    if missing:
        parser.error("%s needs --input for %s" % (args.entry, ", ".join(missing)))
    results = fn(*[values[n] for n in names])
    if not isinstance(results, tuple):
        results = () if results is None else (results,)
    named = dict(values)
    for i, r in enumerate(results):
        named["result" if len(results) == 1 else "result%d" % i] = r
    for spec in args.output:
        name, _, path = spec.partition("=")
        if name not in named or not torch.is_tensor(named[name]):
            parser.error("--output %s: not a tensor argument or result" % name)
        numpy.save(path, named[name].numpy())
    if not args.output:
        for name in [k for k in named if k.startswith("result")]:
            r = named[name]
            if torch.is_tensor(r):
                v = r.double()
                print("%s: tensor %s %s min %.6g max %.6g mean %.6g" % (
                    name, str(r.dtype).replace("torch.", ""), list(r.shape),
                    v.min().item(), v.max().item(), v.mean().item()))
            else:
                print("%s: %r" % (name, r))

