from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # What follows from a fact of play subscribes to its signal (games.signals);
        # the services that send them never name their consequences.
        # Its kinds of notice and the header's counts register with the notifications app.
        from games import notices, permissions, receivers  # noqa: F401 (permissions: its add_perm)

        receivers.connect()
        notices.register()
