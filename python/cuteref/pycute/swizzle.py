"""pycute.swizzle's names (for `from pycute.swizzle import ...`): cuteref.pycute's."""
from . import ComposedLayout, Swizzle, shiftl, shiftr  # noqa: F401
from .layout import *  # noqa: F401,F403  (pycute.swizzle re-exports layout's names)
