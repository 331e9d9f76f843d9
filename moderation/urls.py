"""The moderation pages, under /moderation/."""

from django.urls import URLPattern, path

from moderation.views import rulings

app_name = "moderation"

urlpatterns: list[URLPattern] = [
    # rulings
    path("cases/<int:case_id>/rulings/new/", rulings.new_ruling, name="rule"),
    path("rulings/<int:ruling_id>/", rulings.ruling, name="ruling"),
    path("rulings/<int:ruling_id>/confirm/", rulings.confirm, name="ruling_confirm"),
    path("rulings/<int:ruling_id>/decline/", rulings.decline, name="ruling_decline"),
]
