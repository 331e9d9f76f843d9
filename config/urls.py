from django.contrib import admin
from django.urls import include, path

from config import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("clubs/", include("leagues.urls")),
    path("moderation/", include("moderation.urls")),
    path("admin/", admin.site.urls),
]
