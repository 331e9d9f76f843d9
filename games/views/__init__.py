"""The pages of the games app: the lobby, a table, the game itself and its replay.

Views are thin: they read a form, call one service and render one template (or one of
its partials for htmx). Nothing here decides a rule; :mod:`games.services` and
:mod:`engine` do.
"""
