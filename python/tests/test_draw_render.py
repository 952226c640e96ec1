"""`cuteref draw` pictures (SVG and HTML) rendered by headless Chromium (Debian's chromium):
the page loads without console messages or script errors, and every cell's label is the
model's value (cuteref.eval) at that cell, drawn inside its cell."""
import json
import os
import re
import shutil
import subprocess

import pytest

import cuteref
from conftest import REPORT

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

# A probe appended to the page: it records errors and console output of the page itself, then
# measures each cell's rectangle and label texts and writes the result into the DOM.
PROBE = """
<script>
(function () {
  var problems = [];
  window.addEventListener('error', function (e) { problems.push('error: ' + e.message); });
  ['error', 'warn', 'log'].forEach(function (k) {
    var orig = console[k];
    console[k] = function () { problems.push('console.' + k + ': ' + Array.from(arguments).join(' ')); };
  });
  window.addEventListener('load', function () {
    var cells = [];
    document.querySelectorAll('g.cell').forEach(function (g) {
      var r = g.querySelector('rect').getBoundingClientRect();
      var texts = Array.from(g.querySelectorAll('text')).map(function (t) {
        var b = t.getBoundingClientRect();
        return {text: t.textContent, cx: b.left + b.width / 2, cy: b.top + b.height / 2, w: b.width};
      });
      cells.push({panel: +g.dataset.panel, row: +g.dataset.row, col: +g.dataset.col,
                  rect: [r.left, r.top, r.right, r.bottom], fill: g.querySelector('rect').getAttribute('fill'),
                  texts: texts});
    });
    var out = document.createElement('pre');
    out.id = 'cuteref-probe';
    out.textContent = JSON.stringify({cells: cells, problems: problems});
    document.body.appendChild(out);
  });
})();
</script>
"""


def render(html_path):
    """Chromium's DOM after load, and the console lines it logged."""
    r = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                        "--virtual-time-budget=5000", "--dump-dom", "file://" + html_path],
                       capture_output=True, text=True, timeout=120)
    m = re.search(r'<pre id="cuteref-probe">(.*?)</pre>', r.stdout, re.S)
    assert m, "the probe did not run: " + r.stderr[-2000:]
    text = m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    console = [l for l in r.stderr.splitlines() if ":CONSOLE" in l]
    return json.loads(text), console


def probe_page(tmp_path, name, content):
    path = os.path.join(tmp_path, name + ".probe.html")
    if "<head>" in content:
        content = content.replace("<head>", "<head>" + PROBE, 1)
    else:
        content = "<!DOCTYPE html><html><head><meta charset='utf-8'>" + PROBE + "</head><body>" + content + \
                  "</body></html>"
    with open(path, "w") as f:
        f.write(content)
    return path


def draw(tmp_path, expr, suffix, *extra):
    out = os.path.join(tmp_path, "picture" + suffix)
    subprocess.run([os.environ["CUTEREF_BIN"], "draw", expr, "-o", out] + list(extra), check=True)
    return open(out).read()


CASES = [
    # (EXPR, extra args, expected label of cell (panel, m, n))
    ("(4,(2,3)):(2,(1,8))", [], "layout"),
    ("Sw<2,0,2> o 0 o (8,4):(4,1)", [], "layout"),
    ("Sw<3,4,3> o 0 o (8,64):(64,1)", ["--banks", "16"], "layout"),
    ("(4,2):(1,4) == (4,2):(2,1)", [], "compare"),
    ("((2,4),(2,2)):((16,1),(8,4))", ["--tile", "(4,8)"], "tv"),
    ("make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN)", [], "mma"),
    ("make_tiled_copy(UniversalCopy<uint32_t>, 16, (4,8):(8,1), (1,2):(0,1))", [], "copy"),
]


def expected_labels(expr, extra, kind):
    """The model's label of every cell: L(m + M*n) for layouts (M the size of mode 0);
    T t / V v for the first (t,v) reaching each tile cell."""
    labels = {}
    if kind == "mma":
        # C (16 x 8), A (16 x 8), B (8 x 8) of the 16x8x8 atom, every cell covered once; its
        # T/V labels are checked against CuTe's print_svg by oracles/draw.
        for panel, (rows, cols) in enumerate([(16, 8), (16, 8), (8, 8)]):
            for r in range(rows):
                for c in range(cols):
                    labels[(panel, r, c)] = None
        return labels
    if kind == "copy":
        # S and D of a (4,16) tile (4 x 8 threads, 2 values each), every cell covered once.
        for panel in (0, 1):
            for r in range(4):
                for c in range(16):
                    labels[(panel, r, c)] = None
        return labels
    if kind in ("layout", "compare"):
        sides = expr.split("==") if kind == "compare" else [expr]
        for panel, side in enumerate(sides):
            v = cuteref.eval(side)
            n_total = int(cuteref.size(v))
            shape = cuteref.shape(v)
            rows = int(cuteref.size(shape[0])) if shape.kind == "tuple" and len(shape) >= 2 else n_total
            for i in range(n_total):
                labels[(panel, i % rows, i // rows)] = [str(int(v(i)))]
    else:
        v = cuteref.eval(expr)
        m_tile = int(extra[1].strip("()").split(",")[0])
        threads, values = int(cuteref.size(cuteref.mode(v, 0))), int(cuteref.size(cuteref.mode(v, 1)))
        for t in range(threads):
            for u in range(values):
                idx = int(v((t, u)))
                labels.setdefault((0, idx % m_tile, idx // m_tile), [f"T{t}", f"V{u}"])
    return labels


@pytest.mark.skipif(CHROMIUM is None, reason="chromium (Debian package; ./run installs it) is not installed")
@pytest.mark.parametrize("suffix", [".svg", ".html"])
@pytest.mark.parametrize("expr,extra,kind", CASES)
def test_picture_renders_with_labels_in_place(tmp_path, expr, extra, kind, suffix):
    content = draw(str(tmp_path), expr, suffix, *extra)
    page = probe_page(str(tmp_path), "picture", content)
    result, console = render(page)
    assert result["problems"] == [], result["problems"]
    assert console == [], console  # the probe silenced the page's console: any line is Chromium's own report
    want = expected_labels(expr, extra, kind)
    got = {(c["panel"], c["row"], c["col"]): c for c in result["cells"]}
    assert set(got) == set(want)
    for key, cell in got.items():
        if want[key] is None:
            assert re.fullmatch(r"T\d+", cell["texts"][0]["text"]) and re.fullmatch(r"V\d+", cell["texts"][1]["text"])
        else:
            assert [t["text"] for t in cell["texts"]] == want[key], key
        left, top, right, bottom = cell["rect"]
        assert right - left > 1 and bottom - top > 1
        for t in cell["texts"]:
            assert left <= t["cx"] <= right and top <= t["cy"] <= bottom, (key, t, cell["rect"])
            assert t["w"] > 0  # the label was laid out
    if kind == "compare":
        marked = [c for c in result["cells"] if c["fill"] == "rgb(255,120,120)"]
        assert {(c["panel"], c["row"], c["col"]) for c in marked} == {(0, 1, 0), (1, 1, 0)}  # first difference: index 1
    REPORT.append(f"chromium: {expr} {' '.join(extra)} as {suffix}: {len(got)} cells rendered, labels in place")


@pytest.mark.skipif(CHROMIUM is None, reason="chromium (Debian package; ./run installs it) is not installed")
def test_the_probe_sees_console_errors(tmp_path):
    """Negative control: a page with a script error is reported."""
    page = probe_page(str(tmp_path), "broken", "<svg></svg><script>console.error('boom'); undefined_call();</script>")
    result, _ = render(page)
    assert any("boom" in p for p in result["problems"])
    assert any("undefined_call" in p for p in result["problems"])
