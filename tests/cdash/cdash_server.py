"""A real CDash 2.6 on loopback for the dashboard tests: PostgreSQL in a
cluster of its own, CDash unpacked from ../shared/cdash and served by PHP's
built-in server, an administrator and projects made through CDash's own pages.
Everything it starts it stops again, by PID (`with CDashServer(...) as cdash`).

What it needs is what ../shared/cdash/README.md lists: Debian's php-cli,
php-pgsql, php-xml, php-curl, php-mbstring, php-bcmath and postgresql.
`missing()` says what is absent, so that a test can report itself not run.
"""
import contextlib
import glob
import http.cookiejar
import json
import os
import pathlib
import pwd
import shutil
import signal
import socket
import subprocess
import tarfile
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

ADMIN_EMAIL = "admin@forge.invalid"
ADMIN_PASSWORD = "forge-dashboard-test"


def postgres_bin() -> pathlib.Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return pathlib.Path(found[-1]).parent if found else None


def missing(dist: pathlib.Path) -> list[str]:
    """What a real CDash here lacks, in words; empty when it can run."""
    gaps = []
    if not (dist / "cdash-2.6.0-prebuilt.tar.gz").is_file():
        gaps.append(f"no CDash at {dist} (cdash-2.6.0-prebuilt.tar.gz)")
    if not shutil.which("php"):
        gaps.append("no php (Debian: php-cli php-pgsql php-xml php-curl php-mbstring php-bcmath)")
    else:
        modules = subprocess.run(["php", "-m"], capture_output=True, text=True, check=False).stdout.lower().split()
        for module in ("pdo_pgsql", "xsl", "curl", "mbstring", "bcmath"):
            if module not in modules:
                gaps.append(f"php has no {module} module")
    if postgres_bin() is None:
        gaps.append("no PostgreSQL server (Debian: postgresql)")
    elif os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            gaps.append("running as root without a postgres user to run PostgreSQL as")
    return gaps


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, what: str, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited ({process.returncode}) before it listened on {port}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on 127.0.0.1:{port} within {seconds} s")


class CDashServer:
    def __init__(self, dist: pathlib.Path, work: pathlib.Path):
        self.dist = dist
        self.work = work
        self.processes: list[tuple[str, subprocess.Popen]] = []
        self.logs: list = []
        self.pg_data: pathlib.Path | None = None
        self.url = ""
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    # -- starting and stopping ------------------------------------------------

    def __enter__(self) -> "CDashServer":
        try:
            self._start_postgres()
            self._start_cdash()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *_exc) -> None:
        self.stop()

    def _as_postgres(self, command: list[str]) -> list[str]:
        return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command

    def _start_postgres(self) -> None:
        bin_dir = postgres_bin()
        # Outside the build tree: PostgreSQL runs as its own user where the tests
        # run as root, and a build tree under a private temporary directory is
        # out of that user's reach.
        self.pg_data = pathlib.Path(tempfile.mkdtemp(prefix="forge-cdash-pg-"))
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.pg_data, user.pw_uid, user.pw_gid)
        self.pg_port = free_port()
        subprocess.run(self._as_postgres([str(bin_dir / "initdb"), "-D", str(self.pg_data / "data"), "-U", "cdash",
                                          "--auth=trust", "-E", "UTF8", "--locale=C"]),
                       check=True, capture_output=True)
        log = open(self.work / "postgres.log", "wb")
        self.logs.append(log)
        server = subprocess.Popen(
            self._as_postgres([str(bin_dir / "postgres"), "-D", str(self.pg_data / "data"), "-p", str(self.pg_port),
                               "-k", str(self.pg_data), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"]),
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.processes.append(("PostgreSQL", server))
        wait_for_port(self.pg_port, "PostgreSQL", server)
        deadline = time.monotonic() + 30
        while subprocess.run([str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "cdash",
                              "cdash"], capture_output=True, check=False).returncode != 0:
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL took no database; see {self.work / 'postgres.log'}")
            time.sleep(0.2)

    def _start_cdash(self) -> None:
        tree = self.work / "cdash"
        shutil.rmtree(tree, ignore_errors=True)
        with tarfile.open(self.dist / "cdash-2.6.0-prebuilt.tar.gz") as archive:
            archive.extractall(self.work)
        unpacked = next(p for p in self.work.iterdir() if p.is_dir() and p.name.startswith("cdash-2.6"))
        unpacked.rename(tree)
        subprocess.run(["patch", "-p1", "-s", "-i", str(self.dist / "cdash-2.6-php82.patch")], cwd=tree, check=True)
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        (tree / "config" / "config.local.php").write_text(
            "<?php\n"
            "$CDASH_DB_TYPE = 'pgsql';\n"
            "$CDASH_DB_HOST = '127.0.0.1';\n"
            f"$CDASH_DB_PORT = '{self.pg_port}';\n"
            "$CDASH_DB_LOGIN = 'cdash';\n"
            "$CDASH_DB_PASS = '';\n"
            "$CDASH_DB_NAME = 'cdash';\n"
            f"$CDASH_BASE_URL = '{self.url}';\n")
        log = open(self.work / "php.log", "wb")
        self.logs.append(log)
        # submit.php calls back into the same server: one worker would make each
        # submitted part wait for a timeout.
        server = subprocess.Popen(["php", "-S", f"127.0.0.1:{port}", "-t", str(tree / "public")], cwd=tree / "public",
                                  stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                  env={**os.environ, "PHP_CLI_SERVER_WORKERS": "4"})
        self.processes.append(("PHP's server", server))
        wait_for_port(port, "PHP's server", server)
        self.post_form("install.php", {"admin_email": ADMIN_EMAIL, "admin_password": ADMIN_PASSWORD,
                                       "Submit": "Install"})
        self.post_form("login.php", {"login": ADMIN_EMAIL, "passwd": ADMIN_PASSWORD, "sent": "Login"})

    def stop(self) -> None:
        for name, process in reversed(self.processes):
            if process.poll() is None:
                # PHP's server forks its workers into its process group.
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
        self.processes.clear()
        for log in self.logs:
            log.close()
        self.logs.clear()
        if self.pg_data:
            shutil.rmtree(self.pg_data, ignore_errors=True)
            self.pg_data = None

    # -- talking to it ----------------------------------------------------------

    def _open(self, request: urllib.request.Request) -> bytes:
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.read()
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"{request.get_method()} {request.full_url}: HTTP {error.code}: "
                               f"{error.read()[:500]!r}") from None

    def post_form(self, page: str, fields: dict) -> bytes:
        data = urllib.parse.urlencode(fields).encode()
        return self._open(urllib.request.Request(f"{self.url}/{page}", data=data))

    def api(self, page: str, query: dict | None = None, body: dict | None = None, method: str | None = None) -> dict:
        url = f"{self.url}/api/v1/{page}" + (f"?{urllib.parse.urlencode(query)}" if query else "")
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data else {})
        text = self._open(request)
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            raise RuntimeError(f"{url}: not JSON: {text[:500]!r}") from None

    def create_project(self, name: str, authenticate_submissions: bool = False) -> dict:
        project = {"Name": name, "Public": 1}
        if authenticate_submissions:
            project["AuthenticateSubmissions"] = 1
        return self.api("project.php", body={"Submit": 1, "project": project})

    def create_token(self, description: str) -> str:
        text = self.post_form("api/v1/authtoken.php", {"description": description})
        token = json.loads(text).get("token", {}).get("token")
        if not token:
            raise RuntimeError(f"CDash made no token: {text[:500]!r}")
        return token

    def submit_url(self, project: str) -> str:
        return f"{self.url}/submit.php?project={urllib.parse.quote(project)}"
