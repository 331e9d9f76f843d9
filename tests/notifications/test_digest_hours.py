"""Each member's daily digest comes at the hour of their day they chose, in their zone,
once per date of theirs: on the spring day whose chosen hour the clocks skip (it comes
at the jump), on the autumn day whose hour they repeat (its first pass only), when the
job runs twice, and when it runs late (it catches up the members whose hour passed)."""

from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.conf import settings

from accounts.models import User
from common.wall_clock import instant_at, latest_at, next_reading, within
from notifications import tasks
from notifications.models import Digest, Notification
from notifications.selectors import hours
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

QUARTER = timedelta(minutes=15)


def member(zone: str, hour: int, **fields: Any) -> User:
    user: User = UserFactory(time_zone=zone, digest_hour=hour, **fields)
    return user


def waiting(user: User, at: datetime, text: str = "Club news.") -> Notification:
    """A notice created at ``at`` that waits for ``user``'s digest."""
    with time_machine.travel(at, tick=False):
        return Notification.objects.create(
            user=user, kind="club_news", text=text, link="/clubs/", email="digest"
        )


def run_beat(start: datetime, end: datetime, step: timedelta = QUARTER) -> None:
    """The beat's digest job at every ``step`` from ``start`` to ``end``."""
    moment = start
    while moment <= end:
        with time_machine.travel(moment, tick=False):
            tasks.send_daily_digests.delay()
        moment += step


def digests_of(user: User) -> list[tuple[date, datetime]]:
    return list(Digest.objects.filter(user=user).order_by("sent_at").values_list("day", "sent_at"))


def mails_to(outbox: list[Any], user: User) -> list[Any]:
    return [mail for mail in outbox if mail.to == [user.email]]


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


# --- reading a time of a member's day ---------------------------------------------------


@pytest.mark.parametrize(
    ("zone", "day", "at", "expected"),
    [
        # Spring: the skipped hour's times are the jump.
        ("Europe/Berlin", date(2026, 3, 29), time(2), utc(2026, 3, 29, 1)),
        ("Europe/Berlin", date(2026, 3, 29), time(2, 45), utc(2026, 3, 29, 1)),
        ("Europe/Berlin", date(2026, 3, 29), time(3), utc(2026, 3, 29, 1)),
        ("America/New_York", date(2026, 3, 8), time(2, 30), utc(2026, 3, 8, 7)),
        # Autumn: the repeated hour's first pass, in summer time.
        ("Europe/Berlin", date(2026, 10, 25), time(2), utc(2026, 10, 25, 0)),
        ("America/New_York", date(2026, 11, 1), time(1, 30), utc(2026, 11, 1, 5, 30)),
        # Any other day: the plain reading.
        ("Asia/Kolkata", date(2026, 12, 7), time(8), utc(2026, 12, 7, 2, 30)),
    ],
)
def test_a_time_of_day_is_the_first_instant_the_clocks_read_it(
    zone: str, day: date, at: time, expected: datetime
) -> None:
    assert instant_at(day, at, ZoneInfo(zone)) == expected


def test_the_latest_digest_day_turns_at_the_hour_not_at_midnight() -> None:
    berlin = ZoneInfo("Europe/Berlin")

    assert latest_at(utc(2026, 12, 7, 6, 59), time(8), berlin)[0] == date(2026, 12, 6)
    assert latest_at(utc(2026, 12, 7, 7, 0), time(8), berlin) == (
        date(2026, 12, 7),
        utc(2026, 12, 7, 7),
    )


def test_quiet_hours_across_midnight_are_the_evening_and_the_morning() -> None:
    evening, morning = time(22), time(7)

    assert [within(time(h, m), evening, morning) for h, m in [(21, 59), (22, 0), (0, 0)]] == [
        False,
        True,
        True,
    ]
    assert [within(time(h, m), evening, morning) for h, m in [(6, 59), (7, 0), (12, 0)]] == [
        True,
        False,
        False,
    ]


def test_quiet_hours_ending_in_the_repeated_hour_end_at_its_next_pass() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    # 02:15 CET on 25 October, the repeated hour's second pass: 02:30 CET comes next.
    assert next_reading(utc(2026, 10, 25, 1, 15), time(2, 30), berlin) == utc(2026, 10, 25, 1, 30)


# --- the digest across the clocks' changes ------------------------------------------------


@pytest.mark.parametrize(
    ("zone", "hour", "night", "sent_at"),
    [
        # Berlin skips 02:00-03:00 on 29 March 2026 (01:00 UTC): the 02:00 digest comes at
        # 03:00 CEST, the jump.
        ("Europe/Berlin", 2, utc(2026, 3, 28, 20), utc(2026, 3, 29, 1)),
        # New York skips 02:00-03:00 on 8 March 2026 (07:00 UTC).
        ("America/New_York", 2, utc(2026, 3, 8, 0), utc(2026, 3, 8, 7)),
        # An hour the clocks keep that day: summer time from its start.
        ("Europe/Berlin", 8, utc(2026, 3, 28, 20), utc(2026, 3, 29, 6)),
    ],
)
def test_a_spring_day_whose_hour_the_clocks_skip_still_gets_one_digest(
    zone: str, hour: int, night: datetime, sent_at: datetime, mailoutbox: list[Any]
) -> None:
    user = member(zone, hour)
    waiting(user, night)

    run_beat(night, night + timedelta(hours=30))

    assert [when for _, when in digests_of(user)] == [sent_at]
    assert len(mails_to(mailoutbox, user)) == 1


@pytest.mark.parametrize(
    ("zone", "hour", "first_pass", "second_pass"),
    [
        # Berlin repeats 02:00-03:00 on 25 October 2026: 02:00 CEST, then 02:00 CET.
        ("Europe/Berlin", 2, utc(2026, 10, 25, 0), utc(2026, 10, 25, 1)),
        # New York repeats 01:00-02:00 on 1 November 2026: 01:00 EDT, then 01:00 EST.
        ("America/New_York", 1, utc(2026, 11, 1, 5), utc(2026, 11, 1, 6)),
    ],
)
def test_an_autumn_day_whose_hour_the_clocks_repeat_never_gets_two(
    zone: str, hour: int, first_pass: datetime, second_pass: datetime, mailoutbox: list[Any]
) -> None:
    user = member(zone, hour)
    waiting(user, first_pass - timedelta(hours=5), "Before the hour.")
    run_beat(first_pass - timedelta(hours=2), first_pass + QUARTER)
    # Between the two passes: it waits for the next day's digest, not the second pass.
    waiting(user, first_pass + timedelta(minutes=20), "Between the passes.")

    run_beat(first_pass + 2 * QUARTER, second_pass + timedelta(hours=2))

    assert [when for _, when in digests_of(user)] == [first_pass]
    (mail,) = mails_to(mailoutbox, user)
    assert "Before the hour." in mail.body and "Between the passes." not in mail.body
    # The next day's hour, in winter time now, sends the one that came between.
    next_day = second_pass + timedelta(days=1)
    run_beat(next_day - timedelta(hours=1), next_day + timedelta(hours=1))
    assert [when for _, when in digests_of(user)] == [first_pass, next_day]
    assert "Between the passes." in mails_to(mailoutbox, user)[1].body


def test_a_digest_comes_at_the_members_hour_in_their_zone_each_at_their_own(
    mailoutbox: list[Any],
) -> None:
    berlin, tokyo, kolkata = (
        member("Europe/Berlin", 8),
        member("Asia/Tokyo", 8),
        member("Asia/Kolkata", 19),
    )
    for user in (berlin, tokyo, kolkata):
        waiting(user, utc(2026, 12, 6, 12))

    run_beat(utc(2026, 12, 6, 16), utc(2026, 12, 7, 16))

    assert [when for _, when in digests_of(tokyo)] == [utc(2026, 12, 6, 23)]  # 08:00 JST
    assert [when for _, when in digests_of(berlin)] == [utc(2026, 12, 7, 7)]  # 08:00 CET
    # 19:00 IST on the 6th was 13:30 UTC, before the run began: the first run catches up.
    assert [when for _, when in digests_of(kolkata)] == [utc(2026, 12, 6, 16)]
    assert digests_of(tokyo)[0][0] == date(2026, 12, 7)  # the member's date, not UTC's


def test_a_notice_after_the_hour_waits_for_the_next_days_digest(mailoutbox: list[Any]) -> None:
    user = member("UTC", 8)
    waiting(user, utc(2026, 12, 7, 9))

    run_beat(utc(2026, 12, 7, 9), utc(2026, 12, 8, 7, 45))
    assert digests_of(user) == []

    run_beat(utc(2026, 12, 8, 8), utc(2026, 12, 8, 8))
    assert digests_of(user) == [(date(2026, 12, 8), utc(2026, 12, 8, 8))]


def test_the_job_run_twice_sends_one_digest(mailoutbox: list[Any]) -> None:
    user = member("Europe/Berlin", 8)
    waiting(user, utc(2026, 12, 6, 12))

    with time_machine.travel(utc(2026, 12, 7, 7), tick=False):
        tasks.send_daily_digests.delay()
        tasks.send_daily_digests.delay()
        tasks.send_digest.delay(user.pk)
    # Another notice, then the day's task delivered once more: the day had its digest.
    waiting(user, utc(2026, 12, 7, 7, 5))
    with time_machine.travel(utc(2026, 12, 7, 7, 10), tick=False):
        tasks.send_digest.delay(user.pk)

    assert len(mails_to(mailoutbox, user)) == 1
    assert Notification.objects.filter(user=user, email="digest").count() == 1


def test_a_late_run_catches_up_the_members_whose_hour_passed(mailoutbox: list[Any]) -> None:
    early, later, not_yet = member("UTC", 6), member("UTC", 9), member("UTC", 13)
    for user in (early, later, not_yet):
        waiting(user, utc(2026, 12, 6, 20))

    # No run from 05:00 until 12:00 (beat was down): that one sends both missed digests.
    run_beat(utc(2026, 12, 7, 12), utc(2026, 12, 7, 12))

    assert digests_of(early) == [(date(2026, 12, 7), utc(2026, 12, 7, 12))]
    assert digests_of(later) == [(date(2026, 12, 7), utc(2026, 12, 7, 12))]
    assert digests_of(not_yet) == []
    run_beat(utc(2026, 12, 7, 12, 15), utc(2026, 12, 7, 13))
    assert len(digests_of(early)) == len(digests_of(later)) == len(digests_of(not_yet)) == 1


def test_a_digest_with_nothing_current_sends_no_mail_but_counts_as_the_days(
    mailoutbox: list[Any],
) -> None:
    user = member("UTC", 8)
    note = waiting(user, utc(2026, 12, 6, 20))
    Notification.objects.filter(pk=note.pk).update(read_at=utc(2026, 12, 6, 21))

    run_beat(utc(2026, 12, 7, 8), utc(2026, 12, 7, 9))

    assert mailoutbox == []
    assert Digest.objects.get(user=user).listed == 0
    note.refresh_from_db()
    assert note.email == "skipped"


def test_no_digest_in_quiet_hours_it_comes_when_they_end(mailoutbox: list[Any]) -> None:
    # The hour outside them, but a run that came late would fall inside.
    user = member("UTC", 21, quiet_from=time(22), quiet_until=time(7))
    waiting(user, utc(2026, 12, 7, 12))

    run_beat(utc(2026, 12, 7, 22), utc(2026, 12, 8, 6, 45))
    assert digests_of(user) == []

    run_beat(utc(2026, 12, 8, 7), utc(2026, 12, 8, 7))
    assert digests_of(user) == [(date(2026, 12, 7), utc(2026, 12, 8, 7))]


def test_the_next_digest_is_the_next_days_hour_once_todays_came() -> None:
    user = member("America/New_York", 1)

    # On 1 November, between the repeated hour's passes: tomorrow's 01:00 EST.
    assert hours.next_digest(user, utc(2026, 11, 1, 5, 30)) == utc(2026, 11, 2, 6)
    assert hours.next_digest(user, utc(2026, 11, 1, 4, 59)) == utc(2026, 11, 1, 5)


def test_beat_runs_the_digests_every_quarter_hour_and_the_release_every_minute() -> None:
    schedule = {
        entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }

    digests = schedule["notifications.tasks.send_daily_digests"]
    # Zones are whole, half and quarter hours off UTC: each member's hour is a run's.
    assert digests.minute == {0, 15, 30, 45} and digests.hour == set(range(24))
    assert schedule["notifications.tasks.release_held"] == 60.0
