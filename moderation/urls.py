"""The moderation pages, under /moderation/."""

from django.urls import URLPattern

app_name = "moderation"

urlpatterns: list[URLPattern] = []
