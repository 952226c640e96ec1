"""Suite `python`: runs pytest on a directory and prints how many cases it checked.

Exit status: pytest's, except that a run that collected nothing (pytest's exit 5, or no
test at all) fails, and so does a run with any failure or error. Skips are counted apart,
never as passes. Usage: run_pytest.py TESTDIR [pytest args...]
"""
import sys

import pytest


class Counter:
    def __init__(self):
        self.collected = 0
        self.outcomes = {"passed": 0, "failed": 0, "skipped": 0}

    def pytest_collection_finish(self, session):
        self.collected = len(session.items)

    def pytest_runtest_logreport(self, report):
        if report.when == "call" or (report.when == "setup" and report.outcome != "passed") \
                or (report.when == "teardown" and report.outcome == "failed"):
            key = report.outcome if report.outcome in self.outcomes else "failed"
            self.outcomes[key] += 1


def main():
    test_dir = sys.argv[1]
    counter = Counter()
    rc = pytest.main([test_dir, "-q", "-p", "no:cacheprovider", "-o", "console_output_style=classic",
                      "--rootdir", test_dir] + sys.argv[2:], plugins=[counter])
    o = counter.outcomes
    print(f"python: {counter.collected} cases collected: {o['passed']} passed, {o['failed']} failed, "
          f"{o['skipped']} skipped")
    if counter.collected == 0 or rc == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("python: pytest collected no test: nothing was checked")
        return 1
    if o["passed"] == 0:
        print("python: no test passed")
        return 1
    return int(rc)


if __name__ == "__main__":
    sys.exit(main())
