"""The moderation pages, under /moderation/."""

from django.urls import URLPattern, path

import games.urls  # noqa: F401  (registers the "id" converter)
from moderation.views import appeals, filing, log, queue

app_name = "moderation"

urlpatterns: list[URLPattern] = [
    # filing: reports, the queue, claims
    path("", queue.queue_page, name="queue"),
    path("next/", queue.next_case, name="next"),
    path("cases/<id:case_id>/", queue.case, name="case"),
    path("cases/<id:case_id>/claim/", queue.claim, name="claim"),
    path("cases/<id:case_id>/release/", queue.release, name="release"),
    path("report/game/<id:game_id>/", filing.file, name="file"),
    path("report/message/<id:message_id>/", filing.file_message, name="file_message"),
    path("mine/", filing.my_cases, name="my_cases"),
    # telling: outcomes, appeals and the log
    path("cases/<id:pk>/appeal/", appeals.appeal_new, name="appeal_new"),
    path("appeals/", appeals.appeals_queue, name="appeals"),
    path("appeals/<id:pk>/", appeals.appeal, name="appeal"),
    path("appeals/<id:pk>/close/", appeals.appeal_close, name="appeal_close"),
    path("log/", log.log, name="log"),
]
