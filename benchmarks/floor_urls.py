"""The app's URLconf and the floor's view (see :mod:`benchmarks.floor`); benchmarks only."""

from django.urls import path

from benchmarks.floor import bump
from config.urls import urlpatterns as app_urlpatterns

urlpatterns = [*app_urlpatterns, path("bench/floor/<int:row>/", bump)]
