"""Answers worked out for a member off the web: asked on a page, worked out by a task, pushed
to the page that asked.

The solver may think for seconds (a hint, "arrange for me", a River take, a replay's
analysis, a case's evidence lines). A request never waits for it, and the web process
never runs it (``config.middleware.NoSolverMiddleware``):

1. The request checks what it can at once, then :func:`start` writes a :class:`Job`
   (in the cache: its kind, its member, its arguments) and takes the member's mark for
   that kind of work. A member whose mark is taken gets ``None``, so a second request
   while one runs is answered at once ("still working"), never queued behind it. The
   caller queues the job's task (the "solver" queue) and answers with the placeholder
   (``includes/thinking.html``: "Thinking…", in a live region).
2. The placeholder opens ``ws/answers/<job id>/`` (:class:`AnswerConsumer`): only the
   job's own member may (anyone else is refused as if there were no such job), and its
   group holds that one page's socket, so the answer reaches no other page or person.
3. The task works and calls :func:`finish` with its answer: kept with the job, the mark
   given back, and ``{"type": "answer.ready"}`` sent to the group (it carries nothing).
4. The consumer renders the answer with the renderer its app registered for the kind
   (:func:`register`, in the app's ``AppConfig.ready``), for its own member, and sends it
   for htmx to swap in place of the placeholder (element ``answer-<job id>``). A
   renderer says what changed since (a hint for a turn that has ended is not shown).
   The socket then closes. A page whose socket opens after the answer is in (a fast
   answer) gets it on connecting.

A mark lapses by itself (``seconds``), so a task that was lost or died frees its member;
the job and its answer lapse after :data:`JOB_SECONDS`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from channels.db import database_sync_to_async
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import cache

from common.publish import send_all
from common.sockets import SlotConsumer

JOB_SECONDS = 15 * 60
"""How long a job and its answer are kept: the page that asked has long had it."""

READY: dict[str, object] = {"type": "answer.ready"}


@dataclass(frozen=True)
class Job:
    """What a member asked for: ``kind`` names the renderer; ``args`` what its task needs
    (ids, a version, tiles named), all plain values."""

    id: str
    kind: str
    user_id: int
    args: dict[str, Any] = field(default_factory=dict)
    busy: str = ""
    """The member's mark this job holds while it runs (a cache key)."""

    @property
    def group(self) -> str:
        return answer_group(self.id)

    @property
    def element_id(self) -> str:
        """The id of the placeholder on the page, which the answer replaces."""
        return f"answer-{self.id}"


@dataclass(frozen=True)
class Failed:
    """The answer of a job whose task could not do its work: the sentence to show."""

    message: str


Renderer = Callable[[Job, object, Any], str]
"""``(job, answer, user) -> html``: the answer as the job's member sees it now, for htmx
to swap in by the job's element id."""

_renderers: dict[str, Renderer] = {}


def register(kind: str, renderer: Renderer) -> None:
    """The app that asks for jobs of ``kind`` renders their answers with ``renderer``."""
    _renderers[kind] = renderer


def answer_group(job_id: str) -> str:
    """The Channels group of the one page waiting for job ``job_id``."""
    return f"answer-{job_id}"


def start(
    kind: str, user_id: int, args: dict[str, Any], *, busy: str, seconds: float
) -> Job | None:
    """A new job for member ``user_id``, holding their mark ``busy`` for at most
    ``seconds``; ``None`` when that mark is already held (one job of theirs runs)."""
    job = Job(secrets.token_urlsafe(12), kind, user_id, args, busy)
    if not cache.add(busy, job.id, timeout=int(seconds) + 1):
        return None
    cache.set(_job_key(job.id), job, JOB_SECONDS)
    return job


def job(job_id: str) -> Job | None:
    """The job ``job_id`` if it is still kept."""
    found = cache.get(_job_key(job_id))
    return found if isinstance(found, Job) else None


def answer(job_id: str) -> object | None:
    """The answer of job ``job_id``; ``None`` while it is being worked out."""
    found: object | None = cache.get(_answer_key(job_id))
    return found


def finish(done: Job, result: object) -> None:
    """Keep ``result`` as the job's answer, give the member's mark back and tell the page."""
    cache.set(_answer_key(done.id), result, JOB_SECONDS)
    # The mark may have lapsed and been taken by a newer job meanwhile: that one keeps it.
    if done.busy and cache.get(done.busy) == done.id:
        cache.delete(done.busy)
    send_all([(done.group, READY)])


def render(job_id: str, user: AbstractBaseUser) -> str | None:
    """The answer of job ``job_id`` for ``user``, ``None`` while there is none yet, or
    when the job is not ``user``'s (or gone)."""
    found = job(job_id)
    if found is None or found.user_id != user.pk:
        return None
    result = answer(job_id)
    if result is None:
        return None
    return _renderers[found.kind](found, result, user)


def _job_key(job_id: str) -> str:
    return f"answers:job:{job_id}"


def _answer_key(job_id: str) -> str:
    return f"answers:answer:{job_id}"


class AnswerConsumer(SlotConsumer):
    """``ws/answers/<job id>/``: the answer of one job, to the page of the member who
    asked, once; then the socket closes."""

    group: str | None = None
    job_id = ""
    user: AbstractBaseUser

    async def connect(self) -> None:
        user = self.scope.get("user")
        job_id = str(self.scope["url_route"]["kwargs"]["job_id"])
        if user is None or not user.is_authenticated:
            await self.close()
            return
        found = await database_sync_to_async(job)(job_id)
        # Another member's job and no job at all are refused alike (HTTP 403).
        if found is None or found.user_id != user.pk:
            await self.close()
            return
        if not await self.take_slot(user):
            await self.close()
            return
        self.user = user
        self.job_id = job_id
        self.group = answer_group(job_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # The answer may have come before this socket opened.
        await self.answer_ready({})

    async def disconnect(self, code: int) -> None:
        await self.give_slot_back()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is read from the browser."""

    async def answer_ready(self, event: dict[str, Any]) -> None:
        html = await database_sync_to_async(render)(self.job_id, self.user)
        if html is None:
            return
        await self.send(text_data=html)
        await self.close()
