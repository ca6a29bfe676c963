"""Loads an HTML page in headless Chromium, as a user's browser would: the
page must render (its script sets data-rendered="ok" on <html>) with no
console error, and a screenshot is saved.

usage: browser_check.py PAGE.html SCREENSHOT.png PROFILE_DIR
Prints the <html> element's data attributes, one per line.
"""
import re
import shutil
import subprocess
import sys

page, screenshot, profile = sys.argv[1:4]
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
# Root (CI) needs --no-sandbox; the profile directory keeps runs apart.
common = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
          "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0"]
dom = subprocess.run(common + ["--dump-dom", "file://" + page],
                     capture_output=True, text=True, timeout=120)
# Console messages and uncaught exceptions are logged as CONSOLE lines.
errors = [line for line in dom.stderr.splitlines()
          if "CONSOLE" in line or "Uncaught" in line]
if dom.returncode != 0 or errors:
    sys.exit("the page failed in the browser (exit %d):\n%s"
             % (dom.returncode, "\n".join(errors) or dom.stderr[-2000:]))
html = re.search(r"<html[^>]*>", dom.stdout)
for name, value in re.findall(r'data-([a-z]+)="([^"]*)"', html.group(0) if html else ""):
    print("%s=%s" % (name, value))
shot = subprocess.run(common + ["--window-size=1300,1400", "--screenshot=" + screenshot,
                                "file://" + page],
                      capture_output=True, text=True, timeout=120)
with open(screenshot, "rb") as f:
    if shot.returncode != 0 or f.read(8) != b"\x89PNG\r\n\x1a\n":
        sys.exit("no screenshot:\n" + shot.stderr[-2000:])
print("screenshot: png")
