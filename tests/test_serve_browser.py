"""``tsumego serve``'s page in a real browser: headless Chromium, Debian's ``chromium`` and
``chromium-driver`` (``.ci/run`` installs them), driven by selenium through the driver on
the machine (nothing downloaded).

The server is the real one on a free port, over the shipped network, real solver
processes and a folder of the own problems labelled; the browser opens a problem
through the page's file input, clicks, and the test reads the SVG board and the words
the page shows, against the command line's answers for the same file.
"""
from __future__ import annotations

import os
import tempfile
import threading

import pytest

from solver import load_problem
from solver.coordinates import go_point
from tests.serve_data import GAME, OWN_PROBLEMS, command_line_row, labelled_folder, shipped_network, solve_queue

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
pytestmark = pytest.mark.skipif(not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)),
                                reason=f"no headless Chromium: {CHROMIUM} and {DRIVER} come with Debian's "
                                       "chromium and chromium-driver (apt-get install, as .ci/run does)")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

# The flags a headless browser needs on a machine without a display, a sandbox or the internet.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1440,900"]
# board.js's drawing: a line every CELL pixels, MARGIN from the edge
CELL, MARGIN = 28, 26
# a ko problem whose group dies, White to play
PROBLEM = next(p for p in OWN_PROBLEMS if p.name == "corner-eight-ko.sgf")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from werkzeug.serving import make_server

    from model.serve.app import create_app
    from model.serve.research import load_research

    net, guide = shipped_network()
    folder = tmp_path_factory.mktemp("subproblems")
    labelled_folder(folder)
    solves = solve_queue(guide)
    app = create_app(net, solves, load_research(str(folder), net, bits=5))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/", app.test_client()
    server.shutdown()
    solves.close()


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.TemporaryDirectory()
    options.add_argument(f"--user-data-dir={profile.name}")
    options.binary_location = CHROMIUM
    driver = webdriver.Chrome(service=webdriver.ChromeService(DRIVER), options=options)
    yield driver
    driver.quit()
    profile.cleanup()


def halo_colour(p: float) -> str:
    """What the page must paint a halo of P(safe) ``p``: red, yellow, green (board.js's haloColour)."""
    stops = [(215, 48, 39), (255, 255, 191), (26, 152, 80)]
    low, high, t = (stops[0], stops[1], p * 2) if p < 0.5 else (stops[1], stops[2], (p - 0.5) * 2)
    return "rgb({}, {}, {})".format(*(round(a + (b - a) * t) for a, b in zip(low, high)))


def text(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def answered(driver) -> str:
    """The verdict, once the page shows one."""
    WebDriverWait(driver, 30).until(lambda d: text(d, "verdict") not in ("", "solving…") or text(d, "error"))
    return text(driver, "verdict")


def click_point(driver, x: int, y: int) -> None:
    board = driver.find_element(By.ID, "board")
    width = board.size["width"]
    ActionChains(driver).move_to_element_with_offset(board, MARGIN + x * CELL - width / 2,
                                                     MARGIN + y * CELL - width / 2).click().perform()


def drawn(driver, selector: str, *attributes: str) -> list[list[str]]:
    """The attributes of the SVG elements ``selector`` finds, read at one instant (the board
    is drawn again as answers come)."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => arguments[1].map(a => e.getAttribute(a)))",
        selector, list(attributes))


def board_stones(driver) -> set[tuple[str, str]]:
    return {(point, kind.split()[1]) for point, kind in drawn(driver, "#board circle.stone", "data-point", "class")}


def test_a_player_opens_a_problem_clicks_its_group_and_reads_the_proof(server, browser):
    base, client = server
    browser.get(base)
    browser.find_element(By.ID, "sgf-file").send_keys(str(PROBLEM))
    row, _ = command_line_row(PROBLEM)
    assert answered(browser) == row["verdict"]

    problem = load_problem(PROBLEM)
    size = problem.size
    expected = {(go_point(x, y, size), "black" if problem.stones[y, x] == 1 else "white")
                for y, x in zip(*problem.stones.nonzero())}
    assert board_stones(browser) == expected
    position = client.post("/api/position", json={"sgf": PROBLEM.read_text(), "name": PROBLEM.name}).json
    halo = client.post("/api/halo", json=position).json["halo"]
    halos = drawn(browser, "#board circle.halo", "data-point", "data-p", "fill")
    assert len(halos) == len(expected)
    for point, p, fill in halos:
        x, y = "ABCDEFGHJKLMNOPQRST".index(point[0]), size - int(point[1:])
        assert float(p) == pytest.approx(halo[y][x]) and fill == halo_colour(float(p))
    target = go_point(*problem.target, size)
    # the solver says the group dies (a ko the attacker wins); the halo on it is the network's
    # guess, drawn in its colour whatever it is (checked point by point against /api/halo above)
    assert row["status"] == "unsafe" and any(point == target for point, _, _ in halos)

    # an empty point: the server's one line, and no verdict
    empty = next((x, y) for y in range(size) for x in range(size) if problem.stones[y, x] == 0)
    click_point(browser, *empty)
    WebDriverWait(browser, 10).until(lambda d: text(d, "error"))
    assert text(browser, "error") == f"there is no stone at {go_point(*empty, size)}: click a stone of the group"
    # the target clicked: the proof again, its main line stepped to the end
    click_point(browser, *problem.target)
    assert answered(browser) == row["verdict"] and text(browser, "error") == ""
    browser.find_element(By.ID, "line-last").click()
    final = {(go_point(x, y, size), "black" if c == "X" else "white")
             for y, line in enumerate(row["final"]) for x, c in enumerate(line) if c != "."}
    WebDriverWait(browser, 10).until(lambda d: board_stones(d) == final)
    assert text(browser, "line-text").startswith(f"{len(row['pv'])} of {len(row['pv'])}: 1. ")
    assert browser.find_element(By.ID, "download").get_attribute("href").startswith("blob:")

    browser.find_element(By.ID, "switch-side").click()
    other = "Black" if row["to_play"] == "W" else "White"
    WebDriverWait(browser, 30).until(lambda d: text(d, "verdict").startswith(f"{other} to play"))


def test_a_player_moves_through_a_game_and_asks_about_a_framed_group(server, browser):
    base, _ = server
    browser.get(base)
    browser.find_element(By.ID, "sgf-file").send_keys(str(GAME))
    WebDriverWait(browser, 10).until(lambda d: text(d, "move-count") == "46")
    browser.execute_script("const slider = document.getElementById('move-slider'); slider.value = 38; "
                           "slider.dispatchEvent(new Event('change'));")
    WebDriverWait(browser, 10).until(lambda d: text(d, "move-number") == "38" and len(board_stones(d)) == 40)
    assert browser.find_element(By.ID, "frame").is_selected()   # a game's group is framed
    click_point(browser, 3, 17)   # D2
    assert answered(browser) == command_line_row(GAME, "--group", "D2", "--move", "38")[0]["verdict"]
    # the three wall stones the frame assumes, drawn apart and without a halo
    WebDriverWait(browser, 10).until(lambda d: len(drawn(d, "#board circle.stone.wall", "data-point")) == 3)
    walls = {point for (point,) in drawn(browser, "#board circle.stone.wall", "data-point")}
    assert not walls & {point for (point,) in drawn(browser, "#board circle.halo", "data-point")}


def test_a_researcher_opens_a_size_and_its_worst_position(server, browser):
    base, client = server
    browser.get(base)
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "tab-research").is_displayed())
    browser.find_element(By.ID, "tab-research").click()
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#sizes tr.size-row"))
    rows = client.get("/api/research/sizes").json["rows"]
    shown = [tr.get_attribute("data-size") for tr in browser.find_elements(By.CSS_SELECTOR, "#sizes tr.size-row")]
    assert shown == [row["size"] for row in rows]

    browser.find_elements(By.CSS_SELECTOR, "#sizes tr.size-row")[-1].click()   # all sizes
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#positions tr.position-row"))
    worst = client.get("/api/research/positions", query_string={"size": "all"}).json["positions"][0]
    first = browser.find_elements(By.CSS_SELECTOR, "#positions tr.position-row")[0]
    assert first.get_attribute("data-name") == worst["name"]
    first.click()
    WebDriverWait(browser, 10).until(lambda d: text(d, "research-facts"))
    assert text(browser, "research-facts").startswith(f"label: {worst['label']}; network: P(safe) = "
                                                      f"{worst['p_safe']:.3f}")
    assert drawn(browser, "#research-board circle.halo", "data-p")
    planes = client.get("/api/info").json["planes"]
    options = browser.find_elements(By.CSS_SELECTOR, "#plane-select option")
    assert [o.text for o in options] == [f"{k}. {name}" for k, name in enumerate(planes, 1)]
    assert len(drawn(browser, "#plane rect", "class")) == 121
    browser.find_element(By.ID, "plane-next").click()
    assert text(browser, "plane-caption").startswith(f"{planes[1]}, the window centred on ")
