"""The HTML report in a real browser: headless Chromium (Debian's ``chromium``) opens a run's and
a sweep's report and checks that the Chinese text renders with the embedded font's glyphs (this
machine has no CJK font, so without it every character would be the same empty box) and that
every table fits the page.

Each check loads a copy of the report with a probe script added before ``</body>``; the script
measures the page once it and its fonts are loaded and writes the result as JSON into a
``<pre>``, which ``chromium --dump-dom`` prints. The report itself has no script.

Without ``chromium`` on the PATH these tests are skipped, and pytest's summary says what to install
(``apt-get install chromium``); with ``MJSIM_REQUIRE_BROWSER=1`` they fail instead. ``.ci/run``
installs Chromium and sets that variable, so CI always runs them. ``browser_decision`` makes that
choice; the one test here that needs no browser checks it.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest
from report_pages import with_draws, write_run, write_sweep

from sim import report
from sim.plots import FONT_FAMILY
from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua.play import play_anhua

REQUIRE_VARIABLE = "MJSIM_REQUIRE_BROWSER"
INSTALL_HINT = "apt-get install chromium"
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


def browser_decision(chromium: str | None, environ: Mapping[str, str]) -> tuple[str, str]:
    """What the browser tests do given the path of ``chromium`` (``None``: not found) and the
    environment: ``("run", path)``, ``("skip", reason)``, or ``("fail", message)`` when
    ``MJSIM_REQUIRE_BROWSER=1`` asks for them."""
    if chromium:
        return "run", chromium
    if environ.get(REQUIRE_VARIABLE) == "1":
        return "fail", (
            f"chromium is not on the PATH and {REQUIRE_VARIABLE}=1 requires the browser tests: "
            f"{INSTALL_HINT} (Debian's package; .ci/run installs it)"
        )
    return "skip", (
        f"chromium is not on the PATH: {INSTALL_HINT} (Debian's package) to run the HTML "
        f"report's browser tests ({REQUIRE_VARIABLE}=1 makes them fail instead)"
    )


# this machine's decision: the action, and chromium's path or the reason
BROWSER_ACTION, BROWSER_DETAIL = browser_decision(shutil.which("chromium"), os.environ)


def needs_browser(test):
    """Skips ``test`` without a browser (at collection, before the module's reports are played
    and written), its name in the reason so that pytest's summary lists which tests were skipped."""
    reason = f"{test.__name__}: {BROWSER_DETAIL}"
    return pytest.mark.skipif(BROWSER_ACTION == "skip", reason=reason)(test)


def chromium() -> str:
    """The path of ``chromium``; without it (and ``MJSIM_REQUIRE_BROWSER=1``) the test fails."""
    if BROWSER_ACTION == "fail":
        pytest.fail(BROWSER_DETAIL, pytrace=False)
    return BROWSER_DETAIL


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


@pytest.mark.engine
@needs_browser
def test_run_report_renders_its_chinese_with_the_embedded_font(run_report, tmp_path):
    out = probe(run_report, tmp_path, DESKTOP_WIDTH)
    assert_chinese_renders(out)
    assert re.fullmatch(r"[\u4e00-\u9fff]+", out["cell"]["text"])  # a pattern name
    assert out["pageGlyphs"]["chars"] > 50


@pytest.mark.engine
@needs_browser
def test_run_report_tables_fit_the_page(run_report, tmp_path):
    out = probe(run_report, tmp_path, DESKTOP_WIDTH)
    assert_tables_fit(out)
    assert {t["id"] for t in out["tables"]} >= {"run-facts", "options", "patterns", "scores"}


@pytest.mark.engine
@needs_browser
def test_in_a_narrow_window_wide_tables_scroll_inside_the_page(run_report, tmp_path):
    out = probe(run_report, tmp_path, NARROW_WIDTH)
    assert out["page"]["scroll"] <= out["page"]["client"], out["page"]
    assert out["body"]["scroll"] <= out["body"]["client"], out["body"]
    wide = [t for t in out["tables"] if t["width"] > t["box"]]
    assert wide and all(t["boxOverflow"] == "auto" for t in wide)


@pytest.mark.engine
@needs_browser
def test_sweep_report_renders_and_fits(sweep_report, tmp_path):
    out = probe(sweep_report, tmp_path, DESKTOP_WIDTH, "#axes tbody td:nth-child(2)")
    assert_chinese_renders(out)
    assert out["cell"]["text"].startswith("抓鸟")  # the rule name of the swept option
    assert_tables_fit(out)
    assert {t["id"] for t in out["tables"]} >= {"sweep-outcomes", "sweep-points", "comparison"}


def test_without_chromium_the_browser_tests_skip_unless_required():
    assert browser_decision("/usr/bin/chromium", {}) == ("run", "/usr/bin/chromium")
    assert browser_decision("/usr/bin/chromium", {REQUIRE_VARIABLE: "1"})[0] == "run"
    for environ in ({}, {REQUIRE_VARIABLE: "0"}):
        action, reason = browser_decision(None, environ)
        assert action == "skip"
        assert "apt-get install chromium" in reason
    action, message = browser_decision(None, {REQUIRE_VARIABLE: "1"})
    assert action == "fail"
    assert "apt-get install chromium" in message
    assert f"{REQUIRE_VARIABLE}=1" in message
