"""The club, league and season pages, under /clubs/."""

from django.urls import path  # noqa: F401

app_name = "leagues"

urlpatterns: list[object] = []
