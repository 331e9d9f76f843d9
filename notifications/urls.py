from django.urls import path

from notifications import views

app_name = "notifications"

# Under /games/notifications/ (config/urls.py), where they have always been.
urlpatterns = [
    path("", views.notification_list, name="list"),
    path("read/", views.notifications_read, name="read"),
    path("preferences/", views.preferences, name="preferences"),
    path("push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe/", views.push_unsubscribe, name="push_unsubscribe"),
]
