#!/usr/bin/env python3
"""A real browser for the interop tests: headless Chromium (Debian's chromium and chromium-driver) under Selenium,
driven one JSON command per line on stdin, one JSON answer per line on stdout.

  driver.py          (start.sh runs it with the kit's Python environment)

The browser lives as long as the driver, so the provider's cookies (its sign-in session) survive between commands,
as in a person's browser. Every answer is {"id": ID, "ok": true, ...} or {"id": ID, "ok": false, "error": "..."}; the
first line is {"id": 0, "ok": true, "ready": "Chromium VERSION"}. Commands ("op"):

  signIn    {"url", "until", "username", "password", "typePassword", "shots"}: opens the authorization URL (with
            "url" null: stays on the page shown, as after an answer askedPassword) and plays
            the user until the browser is at an address starting with "until" (the app's redirect URI): a password
            form is filled (only with typePassword; else the answer is askedPassword and the page is left as it is),
            a consent form is granted (every scope ticked), a "Continue" with a session already there is pressed.
            Screenshots: SHOTS-login.png of the first password form, SHOTS-consent.png of a consent page,
            SHOTS-final.png of the last page.
  open      {"url", "shot"}: opens a URL (a redirect typed into the address bar) and waits for the page.
  endSession {"url", "until", "shots"}: opens an end-session URL and confirms the provider's question (django's
            "allow", Glewlwyd's "Logout") until the page has none left or the address starts with "until".
            Screenshots: SHOTS-question.png of the first page, SHOTS-final.png of the last.
  approveDevice {"url", "userCode", "username", "password", "decision", "shots"}: a sign-in on another device
            (RFC 8628) as its user does it: opens the verification URI, signs in when asked, types the user code where
            the page asks for it (unless the complete URI filled it in), then presses "decision" ("accept" or "deny")
            on the provider's question (Glewlwyd asks consent instead: "accept" grants every scope, and its
            "Authorization complete" page ends the command). Screenshots: SHOTS-code.png of the code form,
            SHOTS-question.png of the question, SHOTS-final.png of the last page.
  quit      closes the browser; the driver exits.

Every answer also has "url" (where the browser is), "title" and "text" (the page's visible text, 2,000 characters at
most). Nothing here reaches the network beyond the URLs given (loopback only); Selenium uses the system's driver.
"""
import json
import os
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

CHROMIUM = os.environ.get("REGSTATE_CHROMIUM", "/usr/lib/chromium/chromium")
CHROMEDRIVER = os.environ.get("REGSTATE_CHROMEDRIVER", "/usr/bin/chromedriver")
STEP_LIMIT = 30   # seconds a command may take
CONFIRM_WORDS = ("allow", "logout", "log out", "sign out", "yes")


def start_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1000,760",
                     "--no-proxy-server", "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--lang=en-US"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


class Player:
    """Plays the user in one browser."""

    def __init__(self, browser):
        self.browser = browser
        self.browser.set_page_load_timeout(STEP_LIMIT)

    # What the page shows

    def visible(self, selector):
        try:
            return [e for e in self.browser.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()]
        except (StaleElementReferenceException, WebDriverException):
            return []

    def button(self, *labels):
        """A visible button or submit input whose text, value or name is one of `labels` (case-insensitive)."""
        for element in self.visible("button, input[type=submit]"):
            try:
                words = {(element.text or "").strip().lower(), (element.get_attribute("value") or "").strip().lower(),
                         (element.get_attribute("name") or "").strip().lower()}
            except StaleElementReferenceException:
                continue
            if words & set(labels):
                return element
        return None

    def page(self):
        try:
            text = self.browser.find_element(By.TAG_NAME, "body").text
        except WebDriverException:
            text = ""
        return {"url": self.browser.current_url, "title": self.browser.title, "text": text[:2000]}

    def loaded(self):
        try:
            return self.browser.execute_script("return document.readyState") == "complete"
        except WebDriverException:
            return False

    def shoot(self, path):
        if path:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            self.browser.save_screenshot(path)

    def settle(self):
        """Gives a page's own JavaScript a moment once the document has loaded (Glewlwyd's pages are rendered by it)."""
        deadline = time.monotonic() + STEP_LIMIT
        while not self.loaded() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)

    # Commands

    def sign_in(self, url, until, username, password, typePassword=True, shots=None):
        if url:   # none: go on from the page the browser shows (a password form left by typePassword false)
            try:
                self.browser.get(url)
            except WebDriverException:
                # A provider that signs the user in from its session answers with a redirect straight to `until`;
                # when nothing listens there (idpyoidc's fixed redirect URI), Chromium reports a failed navigation.
                if not self.browser.current_url.startswith(until):
                    raise
        asked = typed = False
        deadline = time.monotonic() + STEP_LIMIT
        while time.monotonic() < deadline:
            if self.browser.current_url.startswith(until) and self.loaded():
                self.settle()
                self.shoot(shots and shots + "-final.png")
                return dict(self.page(), askedPassword=asked, typedPassword=typed)
            fields = self.visible("input[type=password]")
            if fields and not typed:
                self.settle()
                if not asked:
                    self.shoot(shots and shots + "-login.png")
                asked = True
                if not typePassword:
                    self.shoot(shots and shots + "-final.png")
                    return dict(self.page(), askedPassword=True, typedPassword=False)
                self.fill(username, password)
                typed = True
                continue
            grants = [box for box in self.visible("input[type=checkbox][id^=grant-]") if not box.is_selected()]
            if grants:
                self.settle()
                self.shoot(shots and shots + "-consent.png")
                for box in grants:
                    box.click()
                self.press("grant access")
                continue
            if self.press("continue"):
                continue
            time.sleep(0.1)
        raise RuntimeError(f"not at {until} after {STEP_LIMIT} s; at {self.browser.current_url}: {self.page()['text'][:300]}")

    def fill(self, username, password):
        name = self.visible("input[name=username], input#username, input[type=email]")
        if not name:
            raise RuntimeError("a password field but no username field")
        name[0].clear()
        name[0].send_keys(username)
        secret = self.visible("input[type=password]")[0]
        secret.clear()
        secret.send_keys(password)
        submit = self.visible("button[type=submit], input[type=submit]")
        if not submit:
            raise RuntimeError("no submit button on the login form")
        submit[0].click()
        self.wait_until_gone(secret)

    def press(self, label):
        element = self.button(label)
        if element is None:
            return False
        try:
            element.click()
        except (StaleElementReferenceException, WebDriverException):
            return False
        self.wait_until_gone(element)
        return True

    def wait_until_gone(self, element):
        """Waits until `element` is no longer shown (the page moved on), at most 10 s."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if not element.is_displayed():
                    return
            except (StaleElementReferenceException, WebDriverException):
                return
            time.sleep(0.05)

    def approve_device(self, url, userCode, username, password, decision="accept", shots=None):
        self.browser.get(url)
        deadline = time.monotonic() + STEP_LIMIT
        typed_code = False
        while time.monotonic() < deadline:
            self.settle()
            if self.visible("input[type=password]"):
                self.fill(username, password)
                continue
            code = self.visible("input[name=user_code], input#id_user_code, input[type=text]")
            if code and not typed_code:
                self.shoot(shots and shots + "-code.png")
                if (code[0].get_attribute("value") or "") != userCode:
                    code[0].clear()
                    code[0].send_keys(userCode)
                typed_code = True
                if not (self.press("verify") or self.press("ok") or self.press("submit") or self.press("continue")):
                    raise RuntimeError("no button to send the user code")
                continue
            if "authorization complete" in self.page()["text"].lower():   # Glewlwyd: consent granted, done
                self.shoot(shots and shots + "-final.png")
                if decision != "accept":   # Glewlwyd asked nothing: the code is approved, not denied
                    raise RuntimeError(f"the provider approved the code without asking; no {decision} was offered")
                return self.page()
            answer = self.button(decision)
            if answer is not None:
                self.shoot(shots and shots + "-question.png")
                self.press(decision)
                self.settle()
                self.shoot(shots and shots + "-final.png")
                return self.page()
            grants = [box for box in self.visible("input[type=checkbox][id^=grant-]") if not box.is_selected()]
            if grants and decision == "accept":
                self.shoot(shots and shots + "-question.png")
                for box in grants:
                    box.click()
                self.press("grant access")
                continue
            if self.press("continue"):
                continue
            time.sleep(0.1)
        raise RuntimeError(f"no {decision} question after {STEP_LIMIT} s; at {self.browser.current_url}: "
                           f"{self.page()['text'][:300]}")

    def open(self, url, shot=None):
        self.browser.get(url)
        self.settle()
        self.shoot(shot)
        return self.page()

    def end_session(self, url, until=None, shots=None):
        self.browser.get(url)
        self.settle()
        self.shoot(shots and shots + "-question.png")
        confirmed = 0
        while confirmed < 3 and not (until and self.browser.current_url.startswith(until)):
            if not any(self.press(word) for word in CONFIRM_WORDS):
                break
            confirmed += 1
            self.settle()
        self.shoot(shots and shots + "-final.png")
        return dict(self.page(), confirmed=confirmed)


def main():
    def say(answer):
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()

    try:
        browser = start_browser()
    except WebDriverException as error:
        say({"id": 0, "ok": False, "error": f"Chromium did not start ({CHROMIUM}, {CHROMEDRIVER}): {error.msg}"})
        return 1
    player = Player(browser)
    say({"id": 0, "ok": True, "ready": "Chromium " + browser.capabilities.get("browserVersion", "?")})
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            command = json.loads(line)
            ident, op = command.pop("id"), command.pop("op")
            if op == "quit":
                say({"id": ident, "ok": True})
                break
            try:
                action = {"signIn": player.sign_in, "open": player.open, "endSession": player.end_session,
                          "approveDevice": player.approve_device}[op]
                say(dict(action(**command), id=ident, ok=True))
            except Exception as error:   # the test reads the reason; the browser stays for the next command
                say({"id": ident, "ok": False, "error": f"{type(error).__name__}: {error}", **player.page()})
    finally:
        browser.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
