from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"

    def ready(self) -> None:
        from moderation import receivers, rules  # noqa: F401  (rules registers permissions)

        receivers.connect()
