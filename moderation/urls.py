"""The moderation pages, under /moderation/."""

from django.urls import URLPattern, path

from moderation.views import appeals, log

app_name = "moderation"

urlpatterns: list[URLPattern] = [
    # telling: outcomes, appeals and the log (`id`: the games app's converter of ids)
    path("cases/<id:pk>/appeal/", appeals.appeal_new, name="appeal_new"),
    path("appeals/", appeals.appeals_queue, name="appeals"),
    path("appeals/<id:pk>/", appeals.appeal, name="appeal"),
    path("appeals/<id:pk>/close/", appeals.appeal_close, name="appeal_close"),
    path("log/", log.log, name="log"),
]
