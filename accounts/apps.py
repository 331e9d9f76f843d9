from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # The project's own checks (its settings) come with the first app.
        from config import checks  # noqa: F401
