from django.urls import path

from games.views import chat, lobby, member, play, replay, your_move

app_name = "games"

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("mine/", lobby.my_games, name="mine"),
    path("new/", lobby.new_table, name="new_table"),
    path("play-now/", lobby.play_now, name="play_now"),
    path("tables/<id:pk>/", lobby.table, name="table"),
    path("tables/<id:pk>/join/", lobby.join, name="join"),
    path("tables/<id:pk>/cancel/", lobby.cancel, name="cancel_table"),
    path("tables/<id:pk>/seats/", lobby.change_seat, name="change_seat"),
    path("tables/<id:pk>/again/", lobby.play_again, name="play_again"),
    path("tables/<id:pk>/current/", lobby.current, name="current"),
    path("tables/<id:pk>/chat/", chat.say, name="chat_say"),
    path("tables/<id:pk>/chat/mute/", chat.mute, name="chat_mute"),
    path("tables/<id:pk>/chat/unmute/", chat.unmute, name="chat_unmute"),
    path("your-move/", your_move.your_move, name="your_move"),
    path("your-move/next/", your_move.next_game, name="your_move_next"),
    path("vacation/", member.vacation, name="vacation"),
    path("vacation/plan/", member.plan_vacation, name="plan_vacation"),
    path("vacation/end/", member.end_vacation, name="end_vacation"),
    path("vacation/<id:pk>/cancel/", member.cancel_vacation, name="cancel_vacation"),
    path("<id:pk>/", play.game, name="game"),
    path("<id:pk>/move/", play.move, name="move"),
    path("<id:pk>/reset/", play.reset, name="reset"),
    path("<id:pk>/undo/", play.undo, name="undo"),
    path("<id:pk>/play/", play.play, name="play"),
    path("<id:pk>/draw/", play.draw, name="draw"),
    path("<id:pk>/pass/", play.pass_turn, name="pass"),
    path("<id:pk>/discard/", play.discard, name="discard"),
    path("<id:pk>/river/", play.take_from_river, name="river"),
    path("<id:pk>/hint/", play.hint, name="hint"),
    path("<id:pk>/hint/use/", play.use_hint, name="use_hint"),
    path("<id:pk>/arrange/", play.arrange, name="arrange"),
    path("<id:pk>/resign/", play.resign, name="resign"),
    path("<id:pk>/standing-order/", play.standing_order, name="standing_order"),
    path("<id:pk>/replay/", replay.replay, name="replay"),
    path("<id:pk>/replay/analysis/", replay.analysis, name="replay_analysis"),
]
