from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        from accounts.signals import password_changed
        from games import signals
        from leagues import receivers

        # A fixture's standings change when one of its games ends, when its round ends
        # (the fixture is then complete), and when a ruling corrects a result.
        signals.game_finished.connect(receivers.standings_changed, dispatch_uid="leagues-game")
        signals.round_finished.connect(receivers.standings_changed, dispatch_uid="leagues-round")
        signals.results_superseded.connect(
            receivers.standings_changed, dispatch_uid="leagues-ruling"
        )
        password_changed.connect(
            receivers.calendar_after_password_change, dispatch_uid="leagues-calendar"
        )
        # A fixture is finished when its table's round is.
        signals.round_finished.connect(
            receivers.fixture_finished, dispatch_uid="leagues-fixture-finished"
        )
        # A player who withdrew under the forfeit rule forfeits each fixture game at its start.
        signals.game_started.connect(
            receivers.forfeit_for_withdrawn_players, dispatch_uid="leagues-withdrawn"
        )
