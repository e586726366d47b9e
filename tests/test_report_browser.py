"""The HTML report in a real browser: headless Chromium (Debian's ``chromium``) opens a run's and
a sweep's report and checks that the Chinese text renders with the embedded font's glyphs (this
machine has no CJK font, so without it every character would be the same empty box) and that
every table fits the page.

Each check loads a copy of the report with a probe script added before ``</body>``; the script
measures the page once it and its fonts are loaded and writes the result as JSON into a
``<pre>``, which ``chromium --dump-dom`` prints. The report itself has no script.

Chromium is required: without it these tests fail, unless ``MJSIM_SKIP_BROWSER_TESTS=1`` says
to skip them on a machine that cannot have it. ``.ci/run`` installs it.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from report_pages import with_draws, write_run, write_sweep

from sim import report
from sim.plots import FONT_FAMILY
from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua.play import play_anhua

SKIP_VARIABLE = "MJSIM_SKIP_BROWSER_TESTS"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    # lets the probe's promises (fonts.ready) settle before the DOM is printed
    "--virtual-time-budget=15000",
]
DESKTOP_WIDTH = 1200
NARROW_WIDTH = 480

PROBE = """<script>
window.addEventListener("load", async () => {
  const out = {};
  try {
    await document.fonts.ready;
    const family = FAMILY;
    out.faces = [...document.fonts]
      .filter((face) => face.family.replace(/"/g, "") === family)
      .map((face) => face.status);
    out.check = document.fonts.check(`16px "${family}"`, "平胡");
    const bitmap = (char, fontFamily) => {
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 64;
      const context = canvas.getContext("2d");
      context.font = `48px ${fontFamily}`;
      context.textBaseline = "top";
      context.fillText(char, 8, 8);
      const alpha = context.getImageData(0, 0, 64, 64).data.filter((_, i) => i % 4 === 3);
      return Array.from(alpha).join(",");
    };
    // Distinct characters drawn in a font without them are all the same empty box.
    const glyphs = (text, fontFamily) => {
      const chars = [...new Set(text)].filter((char) => char.codePointAt(0) >= 0x2e80);
      const drawn = chars.map((char) => bitmap(char, fontFamily));
      return {
        chars: chars.length,
        distinct: new Set(drawn).size,
        inked: drawn.filter((b) => /[1-9]/.test(b)).length,
      };
    };
    const cell = document.querySelector(CELL);
    out.cell = {text: cell.textContent, family: getComputedStyle(cell).fontFamily};
    out.cellGlyphs = glyphs(cell.textContent, out.cell.family);
    out.pageGlyphs = glyphs(document.body.innerText, getComputedStyle(document.body).fontFamily);
    out.tables = [...document.querySelectorAll("table")].map((table) => ({
      id: table.id,
      width: table.scrollWidth,
      box: table.parentElement.clientWidth,
      boxOverflow: getComputedStyle(table.parentElement).overflowX,
    }));
    const root = document.documentElement;
    out.body = {scroll: document.body.scrollWidth, client: document.body.clientWidth};
    out.page = {scroll: root.scrollWidth, client: root.clientWidth};
  } catch (error) {
    out.error = String(error);
  }
  const pre = document.createElement("pre");
  pre.id = "mjsim-probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""


def chromium() -> str:
    path = shutil.which("chromium")
    if path:
        return path
    if os.environ.get(SKIP_VARIABLE) == "1":
        pytest.skip(f"chromium is not installed and {SKIP_VARIABLE}=1")
    pytest.fail(
        "chromium is not installed: apt-get install -y chromium (as .ci/run does), or set "
        f"{SKIP_VARIABLE}=1 to skip the browser tests"
    )


def probe(report_path: Path, work: Path, width: int, cell: str = "#patterns tbody td") -> dict:
    """Open a copy of ``report_path`` with the probe in Chromium at ``width`` pixels; ``cell``:
    the CSS selector of a table cell with Chinese text whose font is checked."""
    page = work / f"probe-{width}.html"
    script = PROBE.replace("FAMILY", json.dumps(FONT_FAMILY)).replace("CELL", json.dumps(cell))
    text = report_path.read_text(encoding="utf-8")
    assert text.count("</body>") == 1
    page.write_text(text.replace("</body>", script + "</body>"), encoding="utf-8")
    command = [
        chromium(),
        *CHROMIUM_FLAGS,
        f"--user-data-dir={work / f'profile-{width}'}",
        f"--window-size={width},2000",
        "--dump-dom",
        page.as_uri(),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    found = re.search(r'<pre id="mjsim-probe">(.*?)</pre>', result.stdout, re.S)
    assert found, f"no probe result (chromium exit {result.returncode}): {result.stderr[-3000:]}"
    out = json.loads(html.unescape(found.group(1)))
    assert "error" not in out, out["error"]
    return out


@pytest.fixture(scope="module")
def run_report(tmp_path_factory) -> Path:
    """The report of 1,500 hands with 4 birds and the dealer bonus, and some draws."""
    options = AnhuaOptions(bird_count=4, dealer_bonus=True)
    games, wins = play_anhua(1500, seed=3, options=options)
    directory = tmp_path_factory.mktemp("browser") / "run"
    write_run(directory, with_draws(games, 20), wins, options, 3, "browser run")
    return report.write_report(directory)


@pytest.fixture(scope="module")
def sweep_report(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("browser") / "sweep"
    write_sweep(root, 300)
    return report.write_report(root)


def assert_chinese_renders(out: dict) -> None:
    assert out["faces"] == ["loaded"]  # the page's one embedded face, loaded
    assert out["check"] is True
    assert out["cell"]["family"].startswith(f'"{FONT_FAMILY}"')
    for glyphs in (out["cellGlyphs"], out["pageGlyphs"]):
        assert glyphs["chars"] >= 2
        assert glyphs["inked"] == glyphs["chars"]
        assert glyphs["distinct"] == glyphs["chars"], glyphs  # no empty boxes


def assert_tables_fit(out: dict) -> None:
    assert out["page"]["scroll"] <= out["page"]["client"], out["page"]
    assert out["body"]["scroll"] <= out["body"]["client"], out["body"]
    too_wide = [t for t in out["tables"] if t["width"] > t["box"]]
    assert too_wide == [], too_wide


def test_run_report_renders_its_chinese_with_the_embedded_font(run_report, tmp_path):
    out = probe(run_report, tmp_path, DESKTOP_WIDTH)
    assert_chinese_renders(out)
    assert re.fullmatch(r"[\u4e00-\u9fff]+", out["cell"]["text"])  # a pattern name
    assert out["pageGlyphs"]["chars"] > 50


def test_run_report_tables_fit_the_page(run_report, tmp_path):
    out = probe(run_report, tmp_path, DESKTOP_WIDTH)
    assert_tables_fit(out)
    assert {t["id"] for t in out["tables"]} >= {"run-facts", "options", "patterns", "scores"}


def test_in_a_narrow_window_wide_tables_scroll_inside_the_page(run_report, tmp_path):
    out = probe(run_report, tmp_path, NARROW_WIDTH)
    assert out["page"]["scroll"] <= out["page"]["client"], out["page"]
    assert out["body"]["scroll"] <= out["body"]["client"], out["body"]
    wide = [t for t in out["tables"] if t["width"] > t["box"]]
    assert wide and all(t["boxOverflow"] == "auto" for t in wide)


def test_sweep_report_renders_and_fits(sweep_report, tmp_path):
    out = probe(sweep_report, tmp_path, DESKTOP_WIDTH, "#axes tbody td:nth-child(2)")
    assert_chinese_renders(out)
    assert out["cell"]["text"].startswith("抓鸟")  # the rule name of the swept option
    assert_tables_fit(out)
    assert {t["id"] for t in out["tables"]} >= {"sweep-outcomes", "sweep-points", "comparison"}
