"""A throwaway PostgreSQL server for the tests: a temporary cluster on a free loopback port.

The store must be tested against a real PostgreSQL, not only SQLite, and a test run should
need nothing but the server binaries: this module makes a fresh cluster in a temporary
directory (``initdb``), starts it with ``pg_ctl`` listening on 127.0.0.1 only, with trust
authentication and durability switched off for speed, and removes it all when stopped.

Used two ways:

* from ``tests/conftest.py``: ``server = PostgresServer.start(); ...; server.stop()``;
* as a script, by ``.ci/run`` (with the system ``python3``, so standard library only)::

      python3 tests/postgres.py start DIR   # prints postgresql+asyncpg://postgres@127.0.0.1:PORT/postgres
      python3 tests/postgres.py stop DIR    # stops the server and removes DIR

PostgreSQL refuses to run as root; when this process is root, the server's programs run as
the ``postgres`` system user and the directory is handed to that user.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

#: The superuser ``initdb`` creates, whoever runs it; the URL logs in as this role.
SUPERUSER = "postgres"
#: The system account the server runs as when this process is root.
SYSTEM_USER = "postgres"
#: Server settings for a disposable cluster: nothing here needs to survive a crash.
SERVER_SETTINGS = ("-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off")
#: What the cluster accepts: local socket and IPv4 loopback, no password (nothing else listens).
PG_HBA = "local all all trust\nhost all all 127.0.0.1/32 trust\n"
#: Where Debian and Ubuntu install the server programs (not on PATH there).
SYSTEM_BINDIRS = "/usr/lib/postgresql/*/bin"
#: The marker in a directory made by :meth:`PostgresServer.start`; ``stop`` removes only such.
PORT_FILE = "port"


class PostgresError(RuntimeError):
    """The throwaway server could not be started or stopped; the message says why."""


def find_bindir(*, system_dirs: bool = True) -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl``, or ``None`` when there is none.

    ``PATH`` is searched first; with ``system_dirs``, then Debian's versioned directories
    (newest first), where ``apt-get install postgresql`` puts them.
    """
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb and pg_ctl:
        return Path(pg_ctl).resolve().parent
    if system_dirs:
        candidates = sorted(Path("/").glob(SYSTEM_BINDIRS.lstrip("/")), key=_version_key, reverse=True)
        for candidate in candidates:
            if (candidate / "initdb").is_file() and (candidate / "pg_ctl").is_file():
                return candidate
    return None


def _version_key(bindir: Path) -> tuple[int, str]:
    """Sort key for ``/usr/lib/postgresql/<version>/bin``: numeric version first."""
    version = bindir.parent.name
    return (int(version) if version.isdigit() else -1, version)


def _free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _accepts_connections(port: int) -> bool:
    """Whether a PostgreSQL server answers on the port (an SSLRequest gets ``S`` or ``N``)."""
    ssl_request = (8).to_bytes(4, "big") + (80877103).to_bytes(4, "big")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            connection.sendall(ssl_request)
            return connection.recv(1) in (b"S", b"N")
    except OSError:
        return False


@dataclass
class PostgresServer:
    """A running throwaway cluster: its directory, port and the binaries that run it."""

    directory: Path
    port: int
    bindir: Path

    @property
    def data_dir(self) -> Path:
        return self.directory / "data"

    @property
    def socket_dir(self) -> Path:
        return self.directory / "socket"

    @property
    def url(self) -> str:
        """The SQLAlchemy URL of the ``postgres`` database, as the superuser."""
        return f"postgresql+asyncpg://{SUPERUSER}@127.0.0.1:{self.port}/postgres"

    @classmethod
    def start(
        cls, directory: Path | str | None = None, *, bindir: Path | None = None, timeout: float = 30
    ) -> PostgresServer:
        """Make a cluster in ``directory`` (a new temporary one by default) and start it.

        Returns once the server accepts connections. On failure nothing is left running and
        the directory's contents are removed.
        """
        bindir = bindir or find_bindir()
        if bindir is None:
            raise PostgresError("PostgreSQL binaries (initdb, pg_ctl) not found on PATH or in /usr/lib/postgresql")
        if directory is None:
            directory = tempfile.mkdtemp(prefix="gatebot-pg-")
        server = cls(Path(directory).resolve(), 0, bindir)
        try:
            server._init_cluster()
            server._launch(timeout)
        except BaseException:
            with contextlib.suppress(PostgresError):
                server.stop()  # a server that started too slowly may be running
            server._remove()
            raise
        return server

    def stop(self) -> None:
        """Stop the server at once (``pg_ctl stop -m fast``) and remove its directory."""
        try:
            if (self.data_dir / "postmaster.pid").exists():
                self._run("pg_ctl", "stop", "-D", str(self.data_dir), "-m", "fast", "-w", "-t", "30")
        finally:
            self._remove()

    def __enter__(self) -> PostgresServer:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def _init_cluster(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        self.socket_dir.mkdir(exist_ok=True)
        if os.geteuid() == 0:
            account = _system_account()
            for path in (self.directory, self.socket_dir):
                os.chown(path, account.pw_uid, account.pw_gid)
            os.chmod(self.directory, 0o700)
        self._run(
            "initdb", "-D", str(self.data_dir), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8",
            "--locale=C", "--no-sync", "--no-instructions",
        )  # fmt: skip
        (self.data_dir / "pg_hba.conf").write_text(PG_HBA)

    def _launch(self, timeout: float) -> None:
        """``pg_ctl start`` on a free port, trying another port if one was taken meanwhile."""
        log = self.directory / "server.log"
        for _attempt in range(3):
            self.port = _free_port()
            options = " ".join(
                (
                    "-c listen_addresses=127.0.0.1",
                    f"-c port={self.port}",
                    f"-c unix_socket_directories='{self.socket_dir}'",
                    *SERVER_SETTINGS,
                )
            )
            started = self._run(
                "pg_ctl", "start", "-D", str(self.data_dir), "-l", str(log), "-o", options,
                "-w", "-t", str(int(timeout)), check=False,
            )  # fmt: skip
            if started.returncode == 0:
                break
            output = log.read_text(errors="replace") if log.exists() else started.stdout + started.stderr
            if "Address already in use" not in output:
                raise PostgresError(f"PostgreSQL did not start:\n{output[-2000:]}")
        else:
            raise PostgresError("PostgreSQL did not start: every free port tried was taken at once")
        (self.directory / PORT_FILE).write_text(f"{self.port}\n")
        deadline = time.monotonic() + timeout
        while not _accepts_connections(self.port):
            if time.monotonic() > deadline:
                raise PostgresError(f"PostgreSQL started but does not accept connections on port {self.port}")
            time.sleep(0.05)

    def _run(self, program: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run one of the server's programs, as the ``postgres`` account when we are root."""
        account = _system_account() if os.geteuid() == 0 else None
        result = subprocess.run(
            [str(self.bindir / program), *args],
            cwd=self.directory,  # initdb needs a working directory its user can read
            env={**os.environ, "LC_ALL": "C", "LANG": "C"},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=False,
            user=account.pw_uid if account else None,
            group=account.pw_gid if account else None,
            extra_groups=[] if account else None,
        )
        if check and result.returncode != 0:
            raise PostgresError(f"{program} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
        return result

    def _remove(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


def _system_account() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        raise PostgresError(
            f"PostgreSQL refuses to run as root and there is no {SYSTEM_USER!r} user to run it as"
        ) from None


def attach(directory: Path | str) -> PostgresServer:
    """The server that ``start`` left running in ``directory`` (for ``stop`` from another process)."""
    directory = Path(directory).resolve()
    port_file = directory / PORT_FILE
    bindir = find_bindir()
    if not port_file.is_file() or bindir is None:
        raise PostgresError(f"{directory} holds no server started by tests/postgres.py")
    return PostgresServer(directory, int(port_file.read_text()), bindir)


def main(argv: list[str] | None = None) -> int:
    """``start DIR`` prints the URL and leaves the server running; ``stop DIR`` undoes that."""
    parser = argparse.ArgumentParser(description="A throwaway PostgreSQL server for the tests.")
    parser.add_argument("action", choices=("start", "stop"))
    parser.add_argument("directory", type=Path, help="a new or empty directory, removed by stop")
    args = parser.parse_args(argv)
    try:
        if args.action == "start":
            print(PostgresServer.start(args.directory).url)
        elif (args.directory / PORT_FILE).exists():
            attach(args.directory).stop()
        elif args.directory.is_dir() and not any(args.directory.iterdir()):
            args.directory.rmdir()  # start never ran (or cleaned up after itself): nothing to stop
    except PostgresError as error:
        print(f"tests/postgres.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
