"""Shared fixtures of suite `python`: the project's paths and the vendor's pycute."""
import importlib
import os
import sys

import pytest

SOURCE_DIR = os.environ.get("CUTEREF_SOURCE_DIR", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
VENDOR_WHEEL = os.environ.get("CUTEREF_VENDOR_WHEEL", "")


def vendor_pycute():
    """pycute from the nvidia-cutlass wheel (.vendor/wheel), or None when it is not installed."""
    if not VENDOR_WHEEL or not os.path.isfile(os.path.join(VENDOR_WHEEL, "pycute", "layout.py")):
        return None
    if VENDOR_WHEEL not in sys.path:
        sys.path.append(VENDOR_WHEEL)  # appended: nothing of the wheel shadows cuteref
    return importlib.import_module("pycute")


@pytest.fixture(scope="session")
def pycute_vendor():
    pc = vendor_pycute()
    if pc is None:
        pytest.skip("the vendor's pycute (nvidia-cutlass wheel, ./run installs it) is not installed")
    return pc


# Lines the tests add (counts of what they checked), printed at the end of the run.
REPORT = []


def pytest_terminal_summary(terminalreporter):
    for line in REPORT:
        terminalreporter.write_line(line)
