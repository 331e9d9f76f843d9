from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"

    def ready(self) -> None:
        # What follows from moderation's facts and from a game's start subscribes to
        # their signals (moderation.receivers); the permissions register when imported.
        # Its kinds of notice register with the notifications app.
        # (permissions: its add_perm; tasks: the solver's lines job, for the workers.)
        from moderation import answers, notices, permissions, receivers, tasks  # noqa: F401

        receivers.connect()
        notices.register()
        # The solver's lines of a case's evidence, pushed to the moderator's page.
        answers.register()
