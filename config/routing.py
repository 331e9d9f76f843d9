"""Websocket routes: each app that pushes to browsers adds its consumers' paths here."""

from django.urls import URLPattern, URLResolver, path

from common.answers import AnswerConsumer
from games.consumers import GameConsumer, TableChatConsumer
from leagues.consumers import SeasonConsumer
from notifications.consumers import NotificationConsumer

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/chat/", TableChatConsumer.as_asgi()),
    path("ws/notifications/", NotificationConsumer.as_asgi()),
    path("ws/leagues/seasons/<int:season_id>/", SeasonConsumer.as_asgi()),
    # The solver's answer to what a member asked on a page (common.answers).
    path("ws/answers/<slug:job_id>/", AnswerConsumer.as_asgi()),
]
