# The top-k kernel (sort_family.mlir) checked against NumPy: the executor's
# results from the outputs of `tilekit run`, in the directory given.
import numpy as np, sys
d = sys.argv[1]
L = lambda n: np.load(f'{d}/{n}.npy')
x = L('x')
order = np.argsort(-x, axis=1, kind='stable')
assert (L('i') == order[:, :16]).all() and (L('v') == np.take_along_axis(x, order, 1)[:, :16]).all()
h = L('h').astype(np.float32)
# The merge of two sorted runs: by score, ties to the left run (the lower index).
ref = np.argsort(-h, axis=1, kind='stable')
assert (L('hi') == ref).all(), (L('hi'), ref)
assert (L('hv') == np.take_along_axis(L('h'), ref, 1)).all()
print("numpy agrees")
