"""pycute.layout's names (for `from pycute.layout import ...`): cuteref.pycute's."""
from . import (Layout, LayoutBase, coalesce, complement, composition, cosize, filter, hier_unzip,  # noqa: F401
               is_layout, left_inverse, logical_divide, logical_product, make_layout, right_inverse, size,
               slice_and_offset, tiled_divide, tiled_product, zipped_divide, zipped_product)
from .int_tuple import *  # noqa: F401,F403  (pycute.layout re-exports int_tuple's names)
