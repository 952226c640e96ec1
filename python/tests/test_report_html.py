"""`cuteref check --html`: the corpus report as one page with the refuted seed claims pictured
(claimed against correct), rendered by headless Chromium. The same page writer serves
`cuteref verify --html` (the main job; too long to run here)."""
import json
import os
import re
import subprocess

import pytest

import cuteref
from conftest import REPORT
from test_draw_render import CHROMIUM, render

PROBE = """
<script>
(function () {
  var problems = [];
  window.addEventListener('error', function (e) { problems.push('error: ' + e.message); });
  ['error', 'warn', 'log'].forEach(function (k) {
    console[k] = function () { problems.push('console.' + k + ': ' + Array.from(arguments).join(' ')); };
  });
  window.addEventListener('load', function () {
    var errata = [];
    document.querySelectorAll('section.erratum').forEach(function (s) {
      var cells = s.querySelectorAll('g.cell');
      var first = Array.from(cells).filter(function (g) {
        return g.querySelector('rect').getAttribute('fill') === 'rgb(255,120,120)';
      }).map(function (g) { return [+g.dataset.panel, +g.dataset.row, +g.dataset.col]; });
      var box = s.querySelector('svg') ? s.querySelector('svg').getBoundingClientRect() : null;
      errata.push({expr: s.querySelector('h3').textContent, cells: cells.length, first: first,
                   height: box ? box.height : 0});
    });
    var out = document.createElement('pre');
    out.id = 'cuteref-probe';
    out.textContent = JSON.stringify({cells: [], errata: errata, problems: problems});
    document.body.appendChild(out);
  });
})();
</script>
"""


def is_layout_like(text):
    try:
        return cuteref.eval(text).kind in ("layout", "composed_layout")
    except cuteref.Error:
        return False


@pytest.mark.skipif(CHROMIUM is None, reason="chromium (Debian package; ./run installs it) is not installed")
def test_check_html_pictures_the_errata(tmp_path):
    page = os.path.join(str(tmp_path), "check.html")
    r = subprocess.run([os.environ["CUTEREF_BIN"], "check", "--html", page], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    html = open(page).read()
    # The refuted claims, read back from the text report (the same lines `cuteref check` prints).
    # (the reason in parentheses is functional =='s: "at index ...", "sizes differ ...", "... differs from ...")
    refuted = re.findall(r": claim refuted: (.*): claimed (.*), correct (.*?)"
                         r"(?: \((?:at index |sizes differ|.* differs from ).*\))?$", r.stdout, re.M)
    assert refuted, "the corpus has refuted seed claims"
    picturable = [c for c in refuted if is_layout_like(c[1]) and is_layout_like(c[2])]
    assert f"{len(picturable)} of {len(refuted)} errata pictured" in html
    probe_path = os.path.join(str(tmp_path), "probe.html")
    with open(probe_path, "w") as f:
        f.write(html.replace("<head>", "<head>" + PROBE, 1))
    result, console = render(probe_path)
    assert result["problems"] == [] and console == []
    errata = result["errata"]
    assert len(errata) == len(refuted)
    drawn = [e for e in errata if e["cells"] > 0]
    assert len(drawn) == len(picturable) and all(e["height"] > 0 for e in drawn)
    # logical_product(128:1, 4:32): claimed (128,4):(1,128), correct (128,4):(1,4096): the
    # first differing index is 128 (claimed 128*1 = 128 at coordinate (0,1), correct 4096), so
    # cell (0,1) of both panels is the one filled.
    lp = next(e for e in errata if e["expr"] == "logical_product(128:1, 4:32)")
    assert sorted(map(tuple, lp["first"])) == [(0, 0, 1), (1, 0, 1)]
    REPORT.append(f"check --html: {len(refuted)} refuted seed claims, {len(drawn)} pictured, rendered by Chromium")


@pytest.mark.skipif(CHROMIUM is None, reason="chromium (Debian package; ./run installs it) is not installed")
def test_prove_draws_its_refutation(tmp_path):
    from test_draw_render import probe_page
    page = os.path.join(str(tmp_path), "refutation.html")
    claim = "coalesce((a,b):(1,b)) == (a*b):1"
    r = subprocess.run([os.environ["CUTEREF_BIN"], "prove", claim, "--where", "a in [1,4096]", "--where", "b in [1,4096]",
                        "--draw", page], capture_output=True, text=True)
    assert r.returncode == 1 and r.stdout.startswith("refuted:")
    values = dict((k, int(v)) for k, v in re.findall(r"^  (\w+) = (-?\d+)", r.stdout, re.M))
    index = int(re.search(r"^  index = (\d+):", r.stdout, re.M).group(1))
    a, b = values["a"], values["b"]
    # The picture's two panels are the claim's sides at the counterexample (evaluated here
    # through Python), and the filled cell is the counterexample's index in each.
    lhs, rhs = cuteref.eval(f"coalesce(({a},{b}):(1,{b}))"), cuteref.eval(f"{a * b}:1")
    assert lhs != rhs
    result, console = render(probe_page(str(tmp_path), "refutation", open(page).read()))
    assert result["problems"] == [] and console == []
    cells = {(c["panel"], c["row"], c["col"]): c for c in result["cells"]}
    for panel, side in enumerate((lhs, rhs)):
        shape = cuteref.shape(side)
        rows = int(cuteref.size(shape[0])) if shape.kind == "tuple" and len(shape) >= 2 else int(cuteref.size(side))
        for i in range(int(cuteref.size(side))):
            assert [t["text"] for t in cells[(panel, i % rows, i // rows)]["texts"]] == [str(int(side(i)))]
        first = cells[(panel, index % rows, index // rows)]
        assert first["fill"] == "rgb(255,120,120)"
    REPORT.append(f"prove --draw: {claim} refuted at a={a}, b={b}, index {index}: pictured, rendered by Chromium")
