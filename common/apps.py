from django.apps import AppConfig
from django.urls import register_converter

from common.converters import IdConverter


class CommonConfig(AppConfig):
    """The floor under the apps: plumbing every app may use, naming none of them."""

    name = "common"
    verbose_name = "Common"

    def ready(self) -> None:
        # Every app's urls module may write <id:pk>: the converter is registered here,
        # once, since Django reads the addresses only after every app is ready.
        register_converter(IdConverter, "id")
