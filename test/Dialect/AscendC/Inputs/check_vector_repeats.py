"""Checks, on AscendC IR with addresses and L0 vector operands, that every
vector instruction touches exactly its tensor's first elements: each tensor
operand's repeats follow one another without gaps and the last one ends
inside the tensor's allocation. Reads the IR on stdin; prints one line per
instruction checked and exits 1 on the first violation.

The arithmetic is the machine's: a repeat covers 256 bytes of the widest
element type, `mask` elements of it; strides count 32-byte blocks (block
strides first, then repeat strides, one per tensor operand in order)."""
import re
import sys

BYTES = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1, "ui8": 1, "i16": 2,
         "ui16": 2, "i32": 4, "ui32": 4, "i64": 8}

def functions(text):
    """The text of each function (value names restart in each)."""
    return text.split("func.func ")[1:]


def elements_and_bytes(type_text):
    dims, element = type_text.rsplit("x", 1) if "x" in type_text else ("", type_text)
    count = 1
    for d in filter(None, dims.split("x")):
        count *= int(d)
    return count, BYTES[element]


def check(text):
    """Checks the L0 vector instructions of one function; returns how many."""
    constants = {m.group(1): int(m.group(2)) for m in re.finditer(
        r"(%[\w.]+) = arith\.constant (\d+) : index", text)}
    tensors = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in re.finditer(
        r"(%[\w.]+) = ascendc\.local_tensor \w+ addr (\d+) size (\d+)", text)}
    checked = 0
    for m in re.finditer(
            r"ascendc\.(\w+)_l0 (.*?) mask (%[\w.]+) repeat (%[\w.]+) "
            r"strides \[([\d, ]+)\] : (.*)", text):
        name, operands, mask, repeat, strides, types = m.groups()
        mask, repeat = constants[mask], constants[repeat]
        strides = [int(s) for s in strides.split(",")]
        names = [o.strip() for o in operands.split(",") if o.strip().startswith("%")]
        types = [t.strip().strip("<>") for t in types.split(",")]
        local = [(n, t) for n, t in zip(names, types) if n in tensors]
        half = len(strides) // 2
        widest = max(elements_and_bytes(t)[1] for i, (_, t) in enumerate(local)
                     if not (name == "compare" and i == 0))
        for i, (operand, type_text) in enumerate(local):
            if name == "compare" and i == 0:
                continue  # the bit mask destination
            count, size = elements_and_bytes(type_text)
            address, allocated = tensors[operand]
            block, step = strides[i], strides[half + i]
            per_repeat = 256 // widest
            assert mask <= per_repeat, (name, mask, per_repeat)
            bytes_per_repeat = mask * size
            if block != 1 or (repeat > 1 and step * 32 != per_repeat * size):
                sys.exit("%s_l0 operand %s (%s): repeat stride %d blocks leaves "
                         "gaps (a repeat covers %d bytes)" % (
                             name, operand, type_text, step, per_repeat * size))
            touched = (repeat - 1) * step * 32 + -(-bytes_per_repeat // 32) * 32
            if touched > allocated:
                sys.exit("%s_l0 operand %s (%s): %d repeats touch %d bytes of a "
                         "%d-byte allocation" % (name, operand, type_text, repeat,
                                                 touched, allocated))
            if repeat * mask < count:
                sys.exit("%s_l0 operand %s: %d x %d elements miss some of %d" % (
                    name, operand, repeat, mask, count))
        checked += 1
        print("ok %s_l0 repeat %d mask %d" % (name, repeat, mask))
    return checked


checked = sum(check(f) for f in functions(sys.stdin.read()))
if not checked:
    sys.exit("no L0 vector instruction found")
