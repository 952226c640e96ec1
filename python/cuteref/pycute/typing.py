"""pycute.typing's names: cuteref.pycute's Integer."""
from . import Integer  # noqa: F401
