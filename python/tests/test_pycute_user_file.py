"""A pycute user's test file (pycute_user/pycute_style_tests.py) runs unchanged against
cuteref.pycute, beyond the import: it is run as it is against pycute itself (which shows it
is a genuine pycute test), then with its one import line replaced."""
import difflib
import os
import types
import unittest

import pytest

from conftest import REPORT

HERE = os.path.dirname(__file__)
USER_FILE = os.path.join(HERE, "pycute_user", "pycute_style_tests.py")
ORIGINAL_IMPORT = "from pycute import *"
REPLACED_IMPORT = "from cuteref.pycute import *"


def run_as_module(source: str, name: str):
    module = types.ModuleType(name)
    module.__file__ = USER_FILE
    exec(compile(source, USER_FILE, "exec"), module.__dict__)
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    result = unittest.TestResult()
    suite.run(result)
    return result


def test_the_change_is_the_import_line_only():
    original = open(USER_FILE).read()
    changed = original.replace(ORIGINAL_IMPORT, REPLACED_IMPORT)
    diff = [line for line in difflib.unified_diff(original.splitlines(), changed.splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert diff == ["-" + ORIGINAL_IMPORT, "+" + REPLACED_IMPORT]


@pytest.mark.parametrize("target", ["pycute", "cuteref.pycute"])
def test_pycute_user_file(target, request):
    source = open(USER_FILE).read()
    if target == "pycute":
        request.getfixturevalue("pycute_vendor")  # skips when the wheel is not installed
    else:
        source = source.replace(ORIGINAL_IMPORT, REPLACED_IMPORT)
    result = run_as_module(source, "pycute_style_tests_" + target.replace(".", "_"))
    problems = [f"{test.id()}: {trace.strip().splitlines()[-1]}" for test, trace in result.failures + result.errors]
    REPORT.append(f"pycute user's test file against {target}: {result.testsRun} tests run, {len(problems)} failed")
    assert not problems, "\n".join(problems)
    assert result.testsRun == 14
