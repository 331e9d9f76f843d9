"""Notifications: what a member should know, in the app and by email.

The app below games, leagues and moderation: it keeps the notices, their kinds (each app
registers its own in its ``AppConfig.ready()``: :mod:`notifications.kinds`), the members'
email preferences, the emails and the daily digest, and the header's live counts. It
imports none of the apps that register kinds with it.
"""
