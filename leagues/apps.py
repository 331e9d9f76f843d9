from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from accounts.signals import password_changed
        from games import signals
        from leagues import receivers
        from leagues import signals as facts
        from leagues.models import Fixture, Matchday

        # A fixture's standings change when one of its games ends and when a ruling
        # corrects a result (the end of its round finishes the fixture: a fact of ours).
        signals.game_finished.connect(receivers.standings_changed, dispatch_uid="leagues-game")
        signals.results_superseded.connect(
            receivers.standings_changed, dispatch_uid="leagues-ruling"
        )
        # After the close, a ruling's result is told to those it concerns.
        signals.results_superseded.connect(
            receivers.late_correction, dispatch_uid="leagues-late-correction"
        )
        # The leagues' own facts: one refresh of the season per transaction.
        facts.season_changed.connect(
            receivers.refresh_standings, dispatch_uid="leagues-refresh-standings"
        )
        facts.entry_withdrawn.connect(
            receivers.tell_of_withdrawal, dispatch_uid="leagues-tell-withdrawal"
        )
        facts.player_substituted.connect(
            receivers.tell_of_substitution, dispatch_uid="leagues-tell-substitution"
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
        # A vacation during a matchday extends its player's fixtures (by the house rules).
        signals.vacation_changed.connect(
            receivers.vacation_changed, dispatch_uid="leagues-vacation"
        )
        # A fixture's table settles when the fixture is due, in the same transaction.
        post_save.connect(receivers.fixture_saved, sender=Fixture, dispatch_uid="leagues-due")
        post_save.connect(receivers.matchday_saved, sender=Matchday, dispatch_uid="leagues-due")
