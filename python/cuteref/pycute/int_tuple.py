"""pycute.int_tuple's names (for `from pycute.int_tuple import ...`): cuteref.pycute's."""
from . import (chain, crd2crd, crd2idx, elem_scale, flatten, has_none, idx2crd, inner_product, is_int,  # noqa: F401
               is_tuple, prefix_product, product, reduce, shape_div, signum, slice_, tuple_max, Integer, Union)
