#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The web page of `judge serve` driven by a real headless Chromium (Debian's chromium-driver and
python3-selenium), host test double: enter a token, choose the problem, read its statement, paste a
source and submit, see the verdict appear, open the report, see the leaderboard; then upload a wrong
file and see it judged wrong.
usage: test_web_page.py JUDGE_BINARY SOURCE_DIR"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import serve_util as su  # noqa: E402

try:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException, WebDriverException
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service as DriverService
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError as e:
    su.skip(f"selenium is missing ({e}): install the Debian package python3-selenium")

CHROMIUM = next((p for p in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
                 if os.path.exists(p)), None)
DRIVER = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
GOOD = su.host_source("tests/host_submissions/good_sum.cc")
GRADING_SECONDS = 180


def browser():
    if not CHROMIUM or not DRIVER:
        su.skip("chromium or chromedriver is missing: install the Debian packages chromium and chromium-driver")
    options = Options()
    options.binary_location = CHROMIUM
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1400,1000", "--no-first-run", "--disable-extensions"]:
        options.add_argument(flag)
    try:
        return webdriver.Chrome(service=DriverService(DRIVER), options=options)
    except WebDriverException as e:
        su.skip(f"headless chromium did not start: {e.msg}")


def row_of(driver, sid):
    """The cells of submission `sid`'s row as the page shows them now, or None. Read in one script:
    the page redraws its table on every poll, so an element found before may be gone after."""
    return driver.execute_script("""
        const row = document.querySelector('#submissions tbody tr[data-id="' + arguments[0] + '"]');
        if (!row) return null;
        return {status: row.querySelector('.status').textContent, verdict: row.querySelector('.verdict').textContent,
                cells: Array.from(row.cells).map((c) => c.textContent)};""", str(sid))


def wait_verdict(driver, wait, sid):
    """The verdict of submission `sid` once the page shows it done (the page polls by itself)."""
    def shown(d):
        row = row_of(d, sid)
        return row is not None and row["status"] == "done" and row["verdict"]
    return wait.until(shown, f"submission {sid} never showed a verdict")


def main():
    data = tempfile.mkdtemp(prefix="judge-serve-web-")
    service = driver = None
    try:
        token = su.add_token(data, "alice", extra=["--alias", "Team Rocket"])
        # A performance case too: only a timed, accepted submission reaches the leaderboard (the
        # last --cases given is the one used).
        service = su.Service(data, ["--cases", "example,perf_small"]).start()
        driver = browser()
        wait = WebDriverWait(driver, 20)
        driver.get(service.url + "/")

        driver.find_element(By.ID, "token").send_keys(token)
        driver.find_element(By.ID, "save-token").click()
        wait.until(lambda d: "Team Rocket" in d.find_element(By.ID, "who").text, "the token was not accepted")
        wait.until(lambda d: len(Select(d.find_element(By.ID, "problem")).options) > 0, "no problem listed")
        Select(driver.find_element(By.ID, "problem")).select_by_value("reduction")
        wait.until(lambda d: "Reduction" in d.find_element(By.ID, "statement").text, "no statement shown")
        assert driver.find_element(By.CSS_SELECTOR, "#statement h1").text.startswith("Reduction")
        assert "solve(" in driver.find_element(By.ID, "signature").text

        # Paste: a textarea takes the text as typed, so set it as a paste would, then an edit event.
        source = driver.find_element(By.ID, "source")
        driver.execute_script("arguments[0].value = arguments[1];", source, GOOD)
        driver.find_element(By.ID, "submit").click()
        wait.until(lambda d: "Submitted as #" in d.find_element(By.ID, "submit-message").text,
                   "the submission was not accepted")
        sid = driver.find_element(By.ID, "submit-message").text.split("#")[1].rstrip(".")
        wait.until(lambda d: row_of(d, sid) is not None, "the submission is not in the table")
        verdict = wait_verdict(driver, WebDriverWait(driver, GRADING_SECONDS), sid)
        assert verdict.startswith("AC"), f"verdict {verdict!r}"

        # The report, rendered by the service, in the page's sandboxed frame.
        driver.execute_script(
            "document.querySelector('#submissions tr[data-id=\"' + arguments[0] + '\"] button.report').click();", sid)
        wait.until(lambda d: len(d.find_element(By.ID, "report").get_attribute("srcdoc") or "") > 100,
                   "no report shown")
        assert "AC" in driver.find_element(By.ID, "report").get_attribute("srcdoc")

        # The leaderboard shows the alias, never the token's name.
        wait.until(lambda d: "Team Rocket" in d.find_element(By.ID, "leaderboard").text, "not on the leaderboard")
        assert "alice" not in driver.find_element(By.ID, "leaderboard").text

        # A file upload fills the source box; a wrong kernel is judged wrong.
        driver.find_element(By.ID, "file").send_keys(os.path.join(su.SRC, "submissions/host/90_never_writes.cc"))
        wait.until(lambda d: "forgets to store" in d.find_element(By.ID, "source").get_attribute("value"),
                   "the file was not read into the source box")
        driver.find_element(By.ID, "submit").click()
        wait.until(lambda d: f"Submitted as #" in d.find_element(By.ID, "submit-message").text
                   and not d.find_element(By.ID, "submit-message").text.endswith(f"#{sid}."), "second submission")
        sid2 = driver.find_element(By.ID, "submit-message").text.split("#")[1].rstrip(".")
        verdict = wait_verdict(driver, WebDriverWait(driver, GRADING_SECONDS), sid2)
        assert not verdict.startswith("AC"), f"a kernel that never writes got {verdict!r}"
        filename = row_of(driver, sid2)["cells"][2]
        assert filename == "90_never_writes.cc", filename

        # The token is kept: a reload shows the same submissions without typing it again.
        driver.refresh()
        wait.until(lambda d: row_of(d, sid) is not None and row_of(d, sid2) is not None, "lost after a reload")
        print(f"ok: submissions {sid} (AC) and {sid2} ({verdict}) shown, report and leaderboard seen")
    except TimeoutException as e:
        log = service.output()[-3000:] if service else ""
        raise AssertionError(f"{e.msg}\npage text:\n{driver.find_element(By.TAG_NAME, 'body').text if driver else ''}"
                             f"\nservice log:\n{log}") from None
    finally:
        if driver:
            driver.quit()
        if service:
            service.stop()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
