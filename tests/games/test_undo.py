"""One step back inside a turn: the player takes back their last change of the table."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.errors import DraftError, NotYourTurn
from games.models import Draft, Game
from games.selectors.drafts import read_draft
from games.templatetags.game_tags import tiles_in_text
from tests.conftest import client_as
from tests.games.views_support import (
    HTMX,
    TABLE,
    mover,
    post,
    url,
    waiter,
)

pytestmark = pytest.mark.django_db


def working(game: Game) -> list[list[str]]:
    return Draft.objects.get(game=game).table  # type: ignore[no-any-return]


def test_undo_takes_back_the_last_change_only(position: Game) -> None:
    me = mover(position)
    services.move_tiles(position.pk, me, [("K1", "rack")], "new")
    services.move_tiles(position.pk, me, [("K2", "rack")], 2)

    view = services.undo_draft(position.pk, me)

    assert working(position) == [*TABLE, ["K1"]]
    assert "K2" in view.rack and not view.can_undo
    with pytest.raises(DraftError, match="nothing to undo"):
        services.undo_draft(position.pk, me)


def test_undo_takes_back_a_reset(position: Game) -> None:
    me = mover(position)
    services.move_tiles(position.pk, me, [("K1", "rack")], "new")
    services.reset_draft(position.pk, me)

    assert services.undo_draft(position.pk, me).played == ("K1",)


def test_a_new_turn_has_nothing_to_undo(position: Game) -> None:
    me, other = mover(position), waiter(position)
    services.move_tiles(position.pk, me, [("K1", "rack")], "new")
    services.draw(position.pk, me, 0)
    services.draw(position.pk, other, 1)

    assert not read_draft(Game.objects.get(pk=position.pk), me).can_undo
    with pytest.raises(DraftError):
        services.undo_draft(position.pk, me)


def test_the_player_undoes_from_the_page(position: Game) -> None:
    me = client_as(mover(position))
    html = post(me, "move", position, tile="K1", source="rack", target="new").text
    assert "data-undo" in html

    response = post(me, "undo", position)

    assert response.status_code == 200
    assert "Your last change is undone." in response.text
    assert "data-undo" not in response.text
    assert working(position) == TABLE
    position.refresh_from_db()
    assert position.version == 0


def test_with_nothing_to_undo_the_page_says_so(position: Game) -> None:
    response = post(client_as(mover(position)), "undo", position)

    assert response.status_code == 400
    assert "There is nothing to undo in this turn." in response.text


def test_the_opponent_and_a_spectator_cannot_undo(position: Game, carol: User) -> None:
    services.move_tiles(position.pk, mover(position), [("K1", "rack")], "new")

    assert post(client_as(waiter(position)), "undo", position).status_code == 409
    assert post(client_as(carol), "undo", position).status_code == 403
    assert working(position) == [*TABLE, ["K1"]]
    with pytest.raises(NotYourTurn):
        services.undo_draft(position.pk, waiter(position))


def test_undo_needs_a_signed_in_post(position: Game, client: Client) -> None:
    assert client.post(url("undo", position), **HTMX).status_code == 302
    assert client_as(mover(position)).get(url("undo", position)).status_code == 405


# --- tiles in sentences ------------------------------------------------------------------


def test_codes_in_a_sentence_become_small_tiles_read_in_words() -> None:
    html = str(tiles_in_text("O4 K12 J has only <3> tiles; Set 2 and R13."))

    assert "O4" not in html.replace('data-tile="O4"', "")
    assert 'aria-label="orange 4"' in html
    assert 'aria-label="black 12"' in html
    assert 'aria-label="joker"' in html
    assert 'aria-label="red 13"' in html
    assert "&lt;3&gt;" in html and "Set 2" in html
