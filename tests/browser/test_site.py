"""The built course site in a real browser: headless Chromium from the system's packages.

Not part of the default ``pytest`` run (``norecursedirs`` in pyproject.toml skips this folder):
it needs the built site. ``.ci/run`` builds it and runs this file. By hand::

    sphinx-build -W --keep-going -b html docs docs/_build/html
    sphinx-build -W --keep-going -b html -t instructor docs docs/_build/instructor
    python -m pytest -p no:xdist -o addopts="" tests/browser

The site is served from a local ``http.server`` on 127.0.0.1. Chromium and its driver are
Debian's (``apt-get install chromium chromium-driver``), given to selenium by path so that
selenium-manager downloads nothing (``SIMLAB_CHROMIUM``, ``SIMLAB_CHROMEDRIVER`` override the
paths). Each page is checked for typeset math (MathJax output present, no raw ``$...$`` or
``\\(...\\)`` left in the prose), loaded images, and an empty console (no SEVERE entry), and
screenshotted to ``docs/_build/screenshots/`` (not committed), for people to look at.
"""

import functools
import http.server
import os
import re
import threading
from pathlib import Path
from urllib.parse import urljoin

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "docs" / "_build"
SITES = {"student": BUILD / "html", "instructor": BUILD / "instructor"}
SCREENSHOTS = BUILD / "screenshots"
CHROMIUM = os.environ.get("SIMLAB_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("SIMLAB_CHROMEDRIVER", "/usr/bin/chromedriver")
LECTURE = "course/01_numerical_integration.html"
LAB = "labs/lab01_euler_rk4.html"
SOLUTION = "solutions/lab01_euler_rk4.html"
TIMEOUT = 30  # seconds for a page, its images and MathJax

# The visible prose of the article, without code, typeset math and scripts: what is left of
# $...$ or \(...\) there was not typeset.
PROSE_JS = """
const article = document.querySelector('article') || document.body;
const copy = article.cloneNode(true);
copy.querySelectorAll('pre, code, script, style, mjx-container, .highlight, .output')
    .forEach(node => node.remove());
return copy.textContent;
"""
RAW_MATH = re.compile(r"\$[^$\s][^$]*\$|\\\(|\\\[")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module", params=sorted(SITES))
def site(request):
    """(name, base URL) of one built site, served on 127.0.0.1 for the module's tests."""
    folder = SITES[request.param]
    if not (folder / "index.html").is_file():
        flag = " -t instructor" if request.param == "instructor" else ""
        pytest.fail(f"no built {request.param} site in {folder}: run "
                    f"sphinx-build -W --keep-going -b html{flag} docs {folder.relative_to(ROOT)}")
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield request.param, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium through Debian's chromedriver, with the console log recorded."""
    try:
        from selenium import webdriver
    except ImportError:
        pytest.fail('selenium is not installed: pip install -e ".[docs]"')
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).is_file():
            pytest.fail(f"{path} not found: apt-get install chromium chromium-driver")
    os.environ["SE_OFFLINE"] = "true"  # selenium-manager must not try to download anything
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,1000", "--hide-scrollbars", "--lang=en-US"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=CHROMEDRIVER),
                              options=options)
    driver.set_page_load_timeout(TIMEOUT)
    driver.set_script_timeout(TIMEOUT)
    yield driver
    driver.quit()


def _wait_until_rendered(driver):
    """Wait for the page, its images and MathJax's first typesetting; return MathJax's state."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, TIMEOUT).until(
        lambda d: d.execute_script("return document.readyState === 'complete' && "
                                   "Array.from(document.images).every(i => i.complete)"))
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        if (!Array.from(document.scripts).some(s => /mathjax/i.test(s.src))) { done('no MathJax'); return; }
        const start = Date.now();
        const wait = () => (window.MathJax && MathJax.startup && MathJax.startup.promise)
            ? MathJax.startup.promise.then(() => done('typeset'), e => done('failed: ' + e))
            : (Date.now() - start > 10000 ? done('MathJax did not start') : setTimeout(wait, 50));
        wait();
    """)


def _console_errors(driver):
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def _check_page(driver, *, math, figures):
    """The page now shown: no console error, every image loaded, math typeset where there is some."""
    mathjax = _wait_until_rendered(driver)
    errors = _console_errors(driver)
    assert errors == [], f"the console shows errors: {errors}"
    assert mathjax in ("typeset", "no MathJax"), mathjax
    images = driver.execute_script(
        "return Array.from(document.images).map(i => [i.getAttribute('src'), i.naturalWidth])")
    broken = [src for src, width in images if not width]
    assert broken == [], f"images not loaded: {broken}"
    assert len(images) >= figures, f"expected at least {figures} figures, found {len(images)}"
    typeset = driver.execute_script("return document.querySelectorAll('mjx-container').length")
    untypeset = driver.execute_script(
        "return Array.from(document.querySelectorAll('.math')).filter("
        "m => !m.querySelector('mjx-container')).map(m => m.textContent.slice(0, 60))")
    assert untypeset == [], f"math left untypeset: {untypeset[:5]}"
    assert typeset >= math, f"expected at least {math} typeset formulas, found {typeset}"
    raw = RAW_MATH.findall(driver.execute_script(PROSE_JS))
    assert raw == [], f"raw TeX in the prose: {raw[:5]}"


def _screenshot(driver, name, selector=None, text=""):
    """Save the viewport as name.png, scrolled to the first ``selector`` element containing ``text``."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    if selector:
        driver.execute_script(
            "const e = Array.from(document.querySelectorAll(arguments[0]))"
            ".find(e => e.textContent.includes(arguments[1]));"
            "if (e) e.scrollIntoView({block: 'start', behavior: 'instant'});", selector, text)
    driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))
    driver.execute_script("window.scrollTo({top: 0, behavior: 'instant'})")


def _follow(driver, href_end):
    """Click the home page's link that ends in href_end (in the article, else the navigation)."""
    from selenium.webdriver.common.by import By

    links = [link for link in driver.find_elements(By.CSS_SELECTOR, "article a[href], nav a[href]")
             if link.get_attribute("href").split("#")[0].endswith(href_end)]
    assert links, f"the home page has no link to {href_end}"
    link = next((link for link in links if link.is_displayed()), links[0])
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", link)
    link.click()
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, TIMEOUT).until(lambda d: d.current_url.split("#")[0].endswith(href_end))


def _links(driver):
    from selenium.webdriver.common.by import By

    return {link.get_attribute("href").split("#")[0] for link in driver.find_elements(By.CSS_SELECTOR, "a[href]")}


def test_home_page_links_every_lecture_and_lab_and_shows_its_figure(browser, site):
    name, url = site
    browser.get(url)
    _check_page(browser, math=0, figures=1)
    assert "simlab" in browser.title
    links = _links(browser)
    folders = ("course", "labs") + (("solutions",) if name == "instructor" else ())
    for folder in folders:
        for notebook in sorted((ROOT / folder).glob("*.ipynb")):
            assert urljoin(url, f"{folder}/{notebook.stem}.html") in links, f"no link to {folder}/{notebook.name}"
    solutions = [link for link in links if "/solutions/" in link]
    if name == "student":
        assert solutions == [], "the student site links to solutions"
        assert not (SITES["student"] / "solutions").exists(), "the student site contains the solutions"
    if name == "student":
        _screenshot(browser, "home")
    else:
        _screenshot(browser, "instructor-home-solutions", "article p.caption", "Solutions")


def test_lecture_from_the_home_page(browser, site):
    name, url = site
    browser.get(url)
    _wait_until_rendered(browser)
    _follow(browser, LECTURE)
    assert "Numerical integration" in browser.find_element("css selector", "h1").text
    _check_page(browser, math=20, figures=2)
    if name == "student":
        _screenshot(browser, "lecture-top")
        _screenshot(browser, "lecture-figure", "article div.cell", "plot_stability_regions")


def test_lab_from_the_home_page(browser, site):
    name, url = site
    browser.get(url)
    _wait_until_rendered(browser)
    _follow(browser, LAB)
    assert "Euler" in browser.find_element("css selector", "h1").text
    # The student lab's outputs are cleared: math, but no figure yet
    _check_page(browser, math=10, figures=0)
    assert "YOUR CODE HERE" in browser.find_element("css selector", "article").text
    if name == "student":
        _screenshot(browser, "lab-top")
        _screenshot(browser, "lab-task", "article h2", "Task 2")


@pytest.mark.parametrize("site", ["instructor"], indirect=True)  # the student site has none
def test_solution_from_the_home_page_in_the_instructor_site(browser, site):
    _, url = site
    browser.get(url)
    _wait_until_rendered(browser)
    _follow(browser, SOLUTION)
    _check_page(browser, math=10, figures=2)
    headings = [h.text for h in browser.find_elements("css selector", "article h2, article h3, article h4")]
    assert not [h for h in headings if "SOLUTION" in h], "solution markers shown as headings"
    answers = browser.find_elements("css selector", "article div.admonition")
    assert any(a.text.startswith("Model answer") for a in answers), "no model answer box"
    _screenshot(browser, "solution-figure", "article div.cell", "plt.show()")
    _screenshot(browser, "solution-answer", "article div.admonition", "Model answer")
