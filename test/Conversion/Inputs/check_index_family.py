# The index family kernel (index_family.mlir) checked against NumPy: the
# executor's results from the outputs of `tilekit run`, in the directory given.
import numpy as np, sys
d = sys.argv[1]
L = lambda n: np.load(f'{d}/{n}.npy')
x = L('x').astype(np.float32)
ref = np.zeros_like(x); acc = np.zeros(x.shape[1], np.float32)
for i in range(x.shape[0]):
    acc = x[i] if i == 0 else (acc + x[i]).astype(np.float32); ref[i] = acc
assert (L('sx') == ref).all()
h = L('h').astype(np.float32)
acc = np.zeros(h.shape[1], np.float32); ref = np.zeros(h.shape, np.float16)
for i in range(h.shape[0]):
    acc = h[i] if i == 0 else (acc + h[i]).astype(np.float32); ref[i] = acc.astype(np.float16)
assert (L('sh') == ref).all()
n = L('n')
c = np.cumsum(n.astype(np.int64), 0).astype(np.int32)
assert (L('sn') == ((c << 3).astype(np.int32) >> 11)).all()
assert (L('ia') == (np.arange(64, dtype=np.int32) - 5)[None].repeat(4, 0)).all()
assert (L('id') == (np.float32(1000.5) - np.arange(64, dtype=np.float32)).astype(np.float16)[None].repeat(4, 0)).all()
assert (L('iw') == (32760 + np.arange(128)).astype(np.int16)[None]).all()
assert (L('su') == (L('u') >> 5)).all()
print("numpy agrees")
