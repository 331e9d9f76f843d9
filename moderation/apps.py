from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"

    def ready(self) -> None:
        from moderation import receivers, receivers_rulings, rules, signals  # noqa: F401

        # rules registers the permissions when imported. The parties are told outcomes
        # and appeals' answers (receivers.connect); a ruling waiting for a second
        # moderator is told to those who could confirm it.
        receivers.connect()
        signals.ruling_proposed.connect(
            receivers_rulings.ask_for_confirmation, dispatch_uid="moderation-ruling-proposed"
        )
