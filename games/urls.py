from django.urls import path

from games.views import lobby, member, play, replay, your_move

app_name = "games"

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("mine/", lobby.my_games, name="mine"),
    path("new/", lobby.new_table, name="new_table"),
    path("tables/<int:pk>/", lobby.table, name="table"),
    path("tables/<int:pk>/join/", lobby.join, name="join"),
    path("tables/<int:pk>/current/", lobby.current, name="current"),
    path("your-move/", your_move.your_move, name="your_move"),
    path("your-move/next/", your_move.next_game, name="your_move_next"),
    path("notifications/", member.notification_list, name="notifications"),
    path("notifications/read/", member.notifications_read, name="notifications_read"),
    path("notifications/preferences/", member.preferences, name="preferences"),
    path("vacation/", member.vacation, name="vacation"),
    path("vacation/plan/", member.plan_vacation, name="plan_vacation"),
    path("vacation/end/", member.end_vacation, name="end_vacation"),
    path("vacation/<int:pk>/cancel/", member.cancel_vacation, name="cancel_vacation"),
    path("<int:pk>/", play.game, name="game"),
    path("<int:pk>/move/", play.move, name="move"),
    path("<int:pk>/reset/", play.reset, name="reset"),
    path("<int:pk>/play/", play.play, name="play"),
    path("<int:pk>/draw/", play.draw, name="draw"),
    path("<int:pk>/pass/", play.pass_turn, name="pass"),
    path("<int:pk>/discard/", play.discard, name="discard"),
    path("<int:pk>/river/", play.take_from_river, name="river"),
    path("<int:pk>/hint/", play.hint, name="hint"),
    path("<int:pk>/hint/use/", play.use_hint, name="use_hint"),
    path("<int:pk>/arrange/", play.arrange, name="arrange"),
    path("<int:pk>/resign/", play.resign, name="resign"),
    path("<int:pk>/replay/", replay.replay, name="replay"),
]
