from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # What follows from a fact of play subscribes to its signal (games.signals);
        # the services that send them never name their consequences.
        # Its kinds of notice and the header's counts register with the notifications app.
        # (permissions: its add_perm; answers imports the solver's tasks, for the workers.)
        from games import answers, notices, permissions, receivers  # noqa: F401

        receivers.connect()
        notices.register()
        # The solver's answers pushed to players' pages (their tasks: games.solver_tasks).
        answers.register()
