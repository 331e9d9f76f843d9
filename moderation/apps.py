from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"

    def ready(self) -> None:
        from moderation import receivers_rulings, signals

        # A ruling waiting for a second moderator: those who could confirm it are told.
        signals.ruling_proposed.connect(
            receivers_rulings.ask_for_confirmation, dispatch_uid="moderation-ruling-proposed"
        )
