"""Websocket routes: each app that pushes to browsers adds its consumers' paths here."""

from django.urls import URLPattern, URLResolver

websocket_urlpatterns: list[URLPattern | URLResolver] = []
