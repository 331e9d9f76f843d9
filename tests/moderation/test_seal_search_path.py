"""The log's seal runs with its owner's rights; the app's role must not make it run code
of its own (security review wave 3, S1). The attack of the review: as the app's role,
create ``pg_temp.f()``, a temporary view named like the log with an INSTEAD OF UPDATE
trigger calling it, append one entry, commit; the seal's UPDATE of an unqualified name
found the view first (an unlisted pg_temp is searched first) and ran ``f()`` as the seal's
owner, a superuser under `make run` and `make test`. Now the app's role may create no
temporary object, and a role that still may finds the seal writing the log itself."""

from __future__ import annotations

import re
from collections.abc import Iterator

import psycopg
import pytest
from django.db import connection

from moderation.db_role import DEFINER_SEARCH_PATH, seal_functions
from moderation.models import LogEntry
from moderation.selectors.log_chain import verify
from tests.moderation.roles import append_as_the_app, connect_as, drop_role, superuser

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.as_owner]

# f() records whom it ran as: the seal's owner, had the seal run it.
HIJACK = [
    "CREATE FUNCTION pg_temp.f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "PERFORM set_config('s1.ran_as', current_user, false); RETURN NULL; END $$",
    "CREATE TEMPORARY VIEW moderation_logentry AS SELECT * FROM public.moderation_logentry",
    "CREATE TRIGGER hijack INSTEAD OF UPDATE ON moderation_logentry "
    "FOR EACH ROW EXECUTE FUNCTION pg_temp.f()",
    # The view is the app role's: open to whoever owns the seal.
    "GRANT SELECT, UPDATE ON moderation_logentry TO PUBLIC",
]


def run(*statements: str) -> None:
    with superuser() as su:
        for statement in statements:
            su.execute(statement)


@pytest.fixture(params=["no superuser", "a superuser"])
def seal_owner(request: pytest.FixtureRequest) -> Iterator[str]:
    """The seal's owner, whose rights it runs with: a role that is no superuser but may
    write the log (the documented owner, and now that of `make run` and `make test`), or
    a superuser (their owner before)."""
    with superuser() as su:
        found = su.execute(
            "SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user"
        ).fetchone()
        (owner,) = su.execute(
            "SELECT tableowner FROM pg_tables WHERE tablename = 'moderation_logentry'"
        ).fetchone() or ("",)
    assert found is not None
    if not found[1]:
        pytest.skip("DATABASE_URL's role is no superuser: it cannot hand the seal around")
    (seal,) = seal_functions()
    new_owner = str(found[0])
    if request.param == "no superuser":
        new_owner = f"{connection.settings_dict['NAME']}_sealer"[:63].lower()
        drop_role(new_owner)
        run(
            f'CREATE ROLE "{new_owner}" NOSUPERUSER NOLOGIN',
            f'GRANT SELECT, UPDATE ON moderation_logentry TO "{new_owner}"',
        )
    run(f'ALTER FUNCTION {seal} OWNER TO "{new_owner}"')
    try:
        yield new_owner
    finally:
        run(f'ALTER FUNCTION {seal} OWNER TO "{owner}"')
        if request.param == "no superuser":
            drop_role(new_owner)


def test_the_apps_role_may_create_no_temporary_object(app_role: str) -> None:
    with connect_as(app_role) as app:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            app.execute(HIJACK[1])
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            app.execute("CREATE TEMPORARY TABLE moderation_logentry (id int)")


def test_a_temporary_view_of_the_logs_name_cannot_hijack_the_seal(
    app_role: str, seal_owner: str
) -> None:
    # A role that still may create temporary objects (a database whose PUBLIC kept
    # TEMPORARY): the seal's search path and names leave them out all the same.
    database = connection.ops.quote_name(connection.settings_dict["NAME"])
    run(f'GRANT TEMPORARY ON DATABASE {database} TO "{app_role}"')
    with connect_as(app_role) as app:
        with app.transaction():
            for statement in HIJACK:
                app.execute(statement)
            entry = append_as_the_app(app, "Appended behind a temporary view.")
        ran_as = app.execute("SELECT current_setting('s1.ran_as', true)").fetchone()
    assert ran_as in {(None,), ("",)}, f"the seal ran the app's code as {ran_as}"
    assert LogEntry.objects.get(pk=entry).position == 1
    assert verify().intact


def test_every_function_with_the_owners_rights_searches_pg_temp_last() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT p.oid::regprocedure::text, p.proconfig, p.prosrc FROM pg_proc p "
            "JOIN pg_namespace n ON n.oid = p.pronamespace "
            "WHERE p.prosecdef AND n.nspname = 'public'"
        )
        definers = cursor.fetchall()
    assert [name for name, _, _ in definers] == seal_functions()
    for name, config, source in definers:
        assert f"search_path={DEFINER_SEARCH_PATH}" in (config or []), name
        assert DEFINER_SEARCH_PATH.endswith("pg_temp")
        # Every table it names is schema-qualified.
        assert not re.search(r'(?<!public\.)"moderation_logentry"', source), name
