from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        # What follows from the facts of play and of the leagues subscribes to their
        # signals (leagues.receivers); the permissions register when imported.
        # Its kinds of notice register with the notifications app.
        from leagues import notices, permissions, receivers  # noqa: F401 (permissions: its add_perm)

        receivers.connect()
        notices.register()
