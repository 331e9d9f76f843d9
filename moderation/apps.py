from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"

    def ready(self) -> None:
        # What follows from moderation's facts and from a game's start subscribes to
        # their signals (moderation.receivers); the permissions register when imported.
        # Its kinds of notice register with the notifications app.
        from moderation import notices, permissions, receivers  # noqa: F401 (permissions: its add_perm)

        receivers.connect()
        notices.register()
