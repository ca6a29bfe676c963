"""Writes .npy files whose headers a user could get wrong (argv[1]: dir)."""
import os
import struct
import sys


def write(name, header, data=b""):
    header = header + " " * (118 - len(header)) + "\n"
    with open(os.path.join(sys.argv[1], name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode() + data)


write("huge.npy", "{'descr': '<f4', 'fortran_order': False, "
      "'shape': (9999999999999, 9999999999999), }")
write("maybe.npy", "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }",
      b"\0" * 8)
write("fortran.npy", "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }",
      b"\0" * 8)
