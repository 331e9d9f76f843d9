from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.views.defaults import server_error

from accounts.models import User

HOME = reverse("home")

pytestmark = pytest.mark.django_db


def test_a_visitor_is_welcomed_and_offered_to_sign_up_or_log_in(client: Client) -> None:
    response = client.get(HOME)

    assert response.status_code == 200
    assert "Play Rummikub with friends" in response.text
    assert f'href="{reverse("signup")}"' in response.text
    assert f'href="{reverse("login")}"' in response.text


def test_a_member_is_greeted_by_display_name(alice_client: Client, bob: User) -> None:
    response = alice_client.get(HOME)

    assert response.status_code == 200
    assert "Good to see you, Alice." in response.text
    assert "alice@example.com" in response.text
    assert "bob@example.com" not in response.text
    assert f'href="{reverse("signup")}"' not in response.text


def test_the_page_loads_htmx_and_its_websocket_extension_from_our_static_files(
    client: Client,
) -> None:
    response = client.get(HOME)

    assert 'src="/static/vendor/htmx/htmx.min.js"' in response.text
    assert 'src="/static/vendor/htmx/ext/ws.js"' in response.text


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_the_home_page_rejects_other_http_methods(client: Client, method: str) -> None:
    response = getattr(client, method)(HOME)

    assert response.status_code == 405


def test_a_missing_page_is_the_sites_own_not_found_page(alice_client: Client) -> None:
    response = alice_client.get("/games/999999/")

    assert response.status_code == 404
    assert "No such page" in response.text
    assert "/games/999999/" in response.text
    assert 'class="site-header"' in response.text


def test_a_server_error_is_answered_with_the_sites_own_page(rf: Any) -> None:
    response = server_error(rf.get("/"))

    assert response.status_code == 500
    assert "Something went wrong on our side" in response.content.decode()
    assert "css/app.css" in response.content.decode()


def test_a_member_who_just_joined_is_not_welcomed_back(alice_client: Client, alice: User) -> None:
    assert "Welcome to the club" in alice_client.get(HOME).text

    alice.date_joined -= timedelta(days=2)
    alice.save(update_fields=["date_joined"])

    html = alice_client.get(HOME).text
    assert "Welcome back" in html
    assert "Welcome to the club" not in html
