from django.apps import AppConfig


class CommonConfig(AppConfig):
    """The floor under the apps: plumbing every app may use, naming none of them."""

    name = "common"
    verbose_name = "Common"
