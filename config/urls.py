from django.contrib import admin
from django.urls import include, path

from config import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/", include("accounts.urls")),
    # A member's notices were the games app's pages, and keep their addresses.
    path("games/notifications/", include("notifications.urls")),
    path("games/", include("games.urls")),
    path("clubs/", include("leagues.urls")),
    path("moderation/", include("moderation.urls")),
    path("admin/", admin.site.urls),
]
