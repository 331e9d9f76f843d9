"""Reads of notifications: a member's list, their unread count and preferences, and the
header's counts. They never import a service."""
