from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # A notice's push to its member's header and its email follow its signal
        # (notifications.receivers); the kinds are registered by the apps that have them.
        from notifications import receivers

        receivers.connect()
