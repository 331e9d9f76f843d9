from django.contrib import admin
from django.urls import include, path

from config import metrics, views

urlpatterns = [
    path("", views.home, name="home"),
    # The installed app's files at the root: a service worker's scope is its folder.
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/", views.offline, name="offline"),
    path("accounts/", include("accounts.urls")),
    # A member's notices were the games app's pages, and keep their addresses.
    path("games/notifications/", include("notifications.urls")),
    path("games/", include("games.urls")),
    path("clubs/", include("leagues.urls")),
    path("moderation/", include("moderation.urls")),
    path("admin/", admin.site.urls),
    # For Prometheus, with METRICS_TOKEN only (config.metrics); the probes /health/live/
    # and /health/ready/ answer before the URLs are read (config.probes).
    path("metrics/", metrics.view, name="metrics"),
]
