from django.apps import AppConfig


class OperationsConfig(AppConfig):
    """What an operator needs, apart from the game: the health and readiness probes,
    the metrics, error reports and the backups' commands (``manage.py backup_database``,
    ``restore_database``). It sits in config, above every app, since it watches them all
    (the moves of games, the tasks of every worker) and names none of them to the others.
    """

    name = "config"
    label = "operations"
    verbose_name = "Operations"

    def ready(self) -> None:
        from config import metrics

        metrics.connect()
