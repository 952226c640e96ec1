"""Suite `python`, test `python_wheel`: the wheel builds (`pip wheel .`, meson-python, in
build-wheel/ so that the compiler commands, and so ccache's entries, are the main build's),
installs into an empty directory, and imports there: `python -c 'import cuteref;
print(cuteref.eval("coalesce((2,(1,6)):(1,(6,2)))"))'` prints 12:1 (hand derivation in
test_core.py), and cuteref.pycute and cuteref.strategies import from the installed tree.
Usage: wheel_check.py SOURCE_DIR OUT_DIR [SETUP_ARG...]: each SETUP_ARG (e.g. -Dwerror=true, the
main build's setting, so that ccache finds the main build's compiles) is passed to meson setup.
"""
import glob
import os
import shutil
import subprocess
import sys
import time


def main():
    source, out, setup_args = sys.argv[1], sys.argv[2], sys.argv[3:]
    dist, site = os.path.join(out, "dist"), os.path.join(out, "site")
    for d in (dist, site):
        shutil.rmtree(d, ignore_errors=True)
    t0 = time.time()
    subprocess.run([sys.executable, "-m", "pip", "wheel", source, "--no-build-isolation", "--no-deps",
                    "--disable-pip-version-check", "-q", "-w", dist,
                    "--config-settings=build-dir=" + os.path.join(source, "build-wheel")] +
                   ["--config-settings=setup-args=" + a for a in setup_args], check=True)
    wheels = glob.glob(os.path.join(dist, "cuteref-*.whl"))
    print(f"python wheel: built {[os.path.basename(w) for w in wheels]} in {time.time() - t0:.0f} s")
    checks = []
    checks.append(("one wheel", len(wheels) == 1))
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--disable-pip-version-check", "-q",
                    "--target", site, wheels[0]], check=True)
    env = dict(os.environ, PYTHONPATH=site)
    smoke = subprocess.run([sys.executable, "-c", 'import cuteref; print(cuteref.eval("coalesce((2,(1,6)):(1,(6,2)))"))'],
                           cwd=out, env=env, capture_output=True, text=True)
    checks.append(("import cuteref prints 12:1", smoke.stdout == "12:1\n" and smoke.returncode == 0))
    where = subprocess.run([sys.executable, "-c", "import cuteref, cuteref.pycute, cuteref.strategies; "
                            "print(cuteref.__file__); print(cuteref.pycute.coalesce(cuteref.pycute.Layout((2, 4))))"],
                           cwd=out, env=env, capture_output=True, text=True)
    lines = where.stdout.splitlines()
    checks.append(("imported from the installed tree", where.returncode == 0 and lines[0].startswith(site)))
    checks.append(("cuteref.pycute works installed", where.returncode == 0 and lines[1] == "8:1"))
    for name, ok in checks:
        print(("PASS " if ok else "FAIL ") + name)
    if smoke.returncode or where.returncode:
        print(smoke.stderr + where.stderr)
    failed = sum(not ok for _, ok in checks)
    print(f"python wheel: {len(checks) - failed} passed, {failed} failed")
    return 1 if failed or not checks else 0


if __name__ == "__main__":
    sys.exit(main())
