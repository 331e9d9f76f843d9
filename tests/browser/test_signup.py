import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PASSWORD = "my-own-secret-1234"


def sign_up(page: Page, username: str, name: str, password: str) -> None:
    """Fill in and send the sign-up form, reached from the site header's link."""
    page.get_by_role("banner").get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Display name").fill(name)
    page.get_by_label("Email").fill(f"{username}@example.com")
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Password confirmation").fill(password)
    page.get_by_role("button", name="Create my account").click()


def test_a_person_signs_up_logs_out_and_logs_in_again(page: Page) -> None:
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Play Rummikub with friends")
    sign_up(page, "dora", "Dora", PASSWORD)

    expect(page).to_have_url("/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Good to see you, Dora.")
    expect(page.get_by_role("status")).to_contain_text("Welcome to the club, Dora!")

    page.locator(".user-menu summary").click()
    page.get_by_role("button", name="Log out").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text("Play Rummikub with friends")
    page.get_by_role("banner").get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("dora")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Good to see you, Dora.")


def test_a_wrong_password_keeps_the_visitor_out(page: Page) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("nobody")
    page.get_by_label("Password").fill("wrong-password-1")
    page.get_by_role("button", name="Log in").click()

    expect(page.get_by_role("alert")).to_contain_text("Please enter a correct username")
    expect(page.get_by_role("banner").get_by_role("link", name="Sign up")).to_be_visible()


def test_pages_get_our_stylesheet_and_htmx_from_the_server(page: Page) -> None:
    page.goto("/")

    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(246, 242, 234)"
    assert page.evaluate("htmx.version") == "2.0.11"
    assert page.evaluate("typeof htmx.createWebSocket") == "function"
