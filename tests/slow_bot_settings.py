"""Settings of a bots' worker whose every bot is stuck: it sits on its process for a
minute before thinking (``GAMES_BOT_STALL_SECONDS``, see games.tasks), past the bot's time
limits, as a bot lost in a huge position would. Tests start a real worker with these
settings to show that such a bot holds up no clock and gives up cleanly."""

from config.settings import *  # noqa: F403

GAMES_BOT_STALL_SECONDS = 60.0
