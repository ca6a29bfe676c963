"""What the generated op classes import: the `ir` module they build with
and the helpers MLIR's own Python bindings give them, over `_native.ir`."""

from . import ir as _ir


class _Globals:
    @staticmethod
    def register_traceback_file_exclusion(path):
        # Locations skip this package's frames anyway (ir.current_location).
        pass


class _CExt:
    """Stands where MLIR's Python bindings put their native extension."""
    ir = _ir
    globals = _Globals()

    @staticmethod
    def register_dialect(cls):
        return cls

    @staticmethod
    def register_operation(dialect, **_):
        return lambda cls: cls


_cext = _CExt()


def get_default_loc_context(loc=None):
    # One context holds every built kernel.
    return None


def get_op_results_or_values(arg):
    if isinstance(arg, _ir.OpView):
        return arg.results
    return [_ir.as_value(item) for item in arg]


def segmented_accessor(elements, raw_segments, idx):
    """The slice of `elements` segment `idx` of a segment-sizes attribute
    holds."""
    sizes = [int(s) for s in str(raw_segments).split("[", 1)[1].rstrip("]>").split(",")
             if s.strip()]
    start = sum(sizes[:idx])
    return elements[start:start + sizes[idx]]


def equally_sized_accessor(elements, n_simple, n_variadic, n_preceding_simple,
                           n_preceding_variadic):
    total_variadic_length = len(elements) - n_simple
    length = total_variadic_length // n_variadic
    start = n_preceding_simple + n_preceding_variadic * length
    return elements[start:start + length]
