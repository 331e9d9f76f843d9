"""The moderation pages, under /moderation/."""

from django.urls import URLPattern, path

from moderation.views import (
    appeals,
    evidence,
    filing,
    log,
    members,
    messages,
    notes,
    queue,
    rulings,
)

app_name = "moderation"

urlpatterns: list[URLPattern] = [
    # filing: reports, the queue, claims
    path("", queue.queue_page, name="queue"),
    path("next/", queue.next_case, name="next"),
    path("cases/<id:case_id>/", queue.case, name="case"),
    path("cases/<id:case_id>/claim/", queue.claim, name="claim"),
    path("cases/<id:case_id>/release/", queue.release, name="release"),
    path("cases/<id:case_id>/notes/", notes.add_note, name="add_note"),
    path("report/game/<id:game_id>/", filing.file, name="file"),
    path("report/message/<id:message_id>/", filing.file_message, name="file_message"),
    path("mine/", filing.my_cases, name="my_cases"),
    # telling: outcomes, appeals and the log
    path("cases/<id:pk>/appeal/", appeals.appeal_new, name="appeal_new"),
    path("appeals/", appeals.appeals_queue, name="appeals"),
    path("appeals/<id:pk>/", appeals.appeal, name="appeal"),
    path("appeals/<id:pk>/close/", appeals.appeal_close, name="appeal_close"),
    path("log/", log.log, name="log"),
    # members' records and the archive of decided cases
    path("members/<str:username>/", members.member, name="member"),
    path("decided/", members.archive, name="archive"),
    # The evidence of a case (its moderator only).
    path("cases/<id:pk>/evidence/", evidence.evidence, name="evidence"),
    # rulings
    path("cases/<id:case_id>/rulings/new/", rulings.new_ruling, name="rule"),
    path("rulings/<id:ruling_id>/", rulings.ruling, name="ruling"),
    path("rulings/<id:ruling_id>/confirm/", rulings.confirm, name="ruling_confirm"),
    path("rulings/<id:ruling_id>/decline/", rulings.decline, name="ruling_decline"),
    # A reported chat message hidden from the table by the case's moderator.
    path(
        "cases/<id:case_id>/messages/<id:message_id>/hide/",
        messages.hide_message,
        name="hide_message",
    ),
]
