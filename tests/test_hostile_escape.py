"""Hostile labs that try to get out of their sandbox rather than fool their worker: a Unix socket
standing in for tmux or Docker, TCP and UDP on 127.0.0.1, metadata of a file outside, the
runner's secrets in the environment (the limits: test_hostile_limits).

Each runs through `check` beside 901 (which passes), with the whole sandbox and with the layers
that stop it switched off (COMPMATH_SIN), one at a time and together. What the attack achieves is
read from the protections the report says were missing, so the same test holds as root and as an
unprivileged user (run it both ways: docs/integridad.md). Network tests touch only 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import FAKE_PART
from tests.processes import LINUX, fresh_marker, landlock_abi

pytestmark = [
    pytest.mark.lento,  # attacks on real sandboxed labs, with and without each layer
    pytest.mark.skipif(not LINUX, reason="las capas que se prueban son de Linux"),
]

GOOD = {"n": 4, "mitad": 2.0, "vector": [0.0, 0.333333, 0.666667, 1.0]}
WRONG = {"n": 0, "mitad": 0.0, "vector": []}
WRONG_TEXT = json.dumps(WRONG, indent=2) + "\n"


class Helper:
    """A server on a Unix socket that, like tmux or Docker, does what a client asks: here,
    write a wrong snapshot over the file it names."""

    def __init__(self, path: Path) -> None:
        self.path, self.asked = path, threading.Event()
        self.abstract = f"\0compmath-prueba-{uuid.uuid4().hex}"  # a name, not a file
        self.servers = []
        for address in (str(path), self.abstract):
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.bind(address)
            server.listen()
            self.servers.append(server)
            threading.Thread(target=self._serve, args=(server,), daemon=True).start()
        os.chmod(path, 0o777)

    def close(self) -> None:
        for server in self.servers:
            server.close()

    def _serve(self, server: socket.socket) -> None:
        while True:
            try:
                client, _ = server.accept()
            except OSError:
                return
            with client:
                request = client.recv(4096).decode()
            if request.startswith("escribe "):
                Path(request.split(" ", 1)[1].strip()).write_text(WRONG_TEXT)
                self.asked.set()


@pytest.fixture
def helper(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Helper]:
    folder = tmp_path_factory.mktemp("tmux")
    os.chmod(folder, 0o755)
    server = Helper(folder / "default")
    yield server
    server.close()


def switch_off(monkeypatch: pytest.MonkeyPatch, off: str) -> str:
    monkeypatch.setenv("COMPMATH_SIN", off)
    return fresh_marker(monkeypatch)


def check_beside(cli, root: Path, class_id: str) -> tuple[dict[str, str], dict, list[str]]:
    result = cli("check", class_id, "901", "--root", str(root), "--json", "--timeout", "20")
    assert "Traceback" not in result.err
    document = json.loads(result.out)
    reports = {c["clase"]: c for c in document["clases"]}
    outcomes = {name: c["resultado"] for name, c in reports.items()}
    return outcomes, reports[class_id], document["protecciones_ausentes"]


ASK = """\
import os, socket

TARGET = {target!r}


def run() -> dict:
    path = {where}
    try:
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(path)
        client.sendall(("escribe " + TARGET).encode())
        client.close()
        print("pedido")
    except OSError as exc:
        print("rechazado", exc.errno)
    except TypeError:
        print("sin socket")
    return {wrong!r}
"""
SOCKETS = {  # how the lab finds the server, and what must be missing for it to reach it
    "ruta": ("{path!r}", {"seccomp"}),
    "variable-tmux": ('(os.environ.get("TMUX") or ",").split(",")[0] or None', {"seccomp", "env"}),
    # abstract names live in a network namespace, and Landlock ABI 6 scopes them
    "abstracto": ("{abstract!r}", {"seccomp", "netns", "landlock"}),
}


@pytest.mark.parametrize(
    "off",
    [
        "",
        "seccomp",
        "env",
        "seccomp,env",
        "landlock,mountns",
        "seccomp,netns",
        "seccomp,netns,landlock",
    ],
)
@pytest.mark.parametrize("how", list(SOCKETS))
def test_a_socket_helper_outside_is_out_of_reach(
    cli, make_lab, monkeypatch, helper, how, off
) -> None:
    switch_off(monkeypatch, off)
    monkeypatch.setenv("TMUX", f"{helper.path},4242,0")
    slug = f"pide-a-tmux-{how}"
    root = make_lab(990, "", expected=GOOD, slug=slug)
    snapshot = root / "classes" / FAKE_PART / f"990-{slug}" / "expected.json"
    where, needs = SOCKETS[how]
    where = where.format(path=str(helper.path), abstract=helper.abstract)
    source = ASK.format(target=str(snapshot), where=where, wrong=WRONG)
    snapshot.with_name("lab.py").write_text(source)
    outcomes, report, missing = check_beside(cli, root, f"990-{slug}")
    could = set(missing) | ({"landlock"} if landlock_abi() < 6 else set())
    if needs <= could:  # the attack lands: the next run would pass with a wrong answer
        assert helper.asked.wait(10) and json.loads(snapshot.read_text()) == WRONG
        assert "pedido" in report["stdout"]
    else:
        assert not helper.asked.is_set() and json.loads(snapshot.read_text()) == GOOD
        assert outcomes == {f"990-{slug}": "difiere", "901-pasa": "coincide"}
        assert "pedido" not in report["stdout"]


NETWORK = """\
import socket


def run() -> dict:
    said = []
    try:
        tcp = socket.create_connection(("127.0.0.1", {tcp}), timeout=2)
        tcp.sendall(b"secreto")
        tcp.close()
        said.append("tcp")
    except OSError as exc:
        print("tcp", exc.errno)
    try:
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        udp.sendto(b"secreto", ("127.0.0.1", {udp}))
        said.append("udp")
    except OSError as exc:
        print("udp", exc.errno)
    try:
        server = socket.socket()
        server.bind(("0.0.0.0", 0))
        server.listen()
        said.append("escucha")
    except OSError as exc:
        print("escucha", exc.errno)
    print("enviado:", said)
    return {good!r}
"""


@pytest.mark.parametrize("off", ["", "seccomp", "netns", "seccomp,netns"])
def test_no_network_reaches_a_listener_on_localhost(cli, make_lab, monkeypatch, off) -> None:
    switch_off(monkeypatch, off)
    tcp = socket.create_server(("127.0.0.1", 0))
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    tcp.settimeout(5)
    udp.settimeout(5)
    try:
        source = NETWORK.format(tcp=tcp.getsockname()[1], udp=udp.getsockname()[1], good=GOOD)
        root = make_lab(991, source, expected=GOOD, slug="red")
        outcomes, report, missing = check_beside(cli, root, "991-red")
        assert outcomes == {"991-red": "coincide", "901-pasa": "coincide"}
        if {"seccomp", "netns"} <= set(missing):
            assert tcp.accept()[0].recv(16) == b"secreto"
            assert udp.recv(16) == b"secreto"
        else:
            assert "enviado: []" in report["stdout"] or "enviado: ['escucha']" in report["stdout"]
            tcp.settimeout(0.2)
            with pytest.raises(OSError):
                tcp.accept()
            udp.settimeout(0.2)
            with pytest.raises(OSError):
                udp.recv(16)
    finally:
        tcp.close()
        udp.close()


METADATA = """\
import os


def run() -> dict:
    for name, action in (
        ("chmod", lambda: os.chmod({path!r}, 0o4777)),
        ("utime", lambda: os.utime({path!r}, (0, 0))),
        ("setxattr", lambda: os.setxattr({path!r}, "user.compmath", b"lab")),
    ):
        try:
            action()
            print(name, "hecho")
        except OSError as exc:
            print(name, "rechazado", exc.errno)
    return {good!r}
"""


@pytest.mark.parametrize("off", ["", "mountns", "landlock", "landlock,mountns"])
def test_metadata_outside_the_folder_stays(cli, make_lab, monkeypatch, tmp_path, off) -> None:
    switch_off(monkeypatch, off)
    outside = tmp_path / "fuera.txt"
    outside.write_text("intacto")
    os.chmod(outside, 0o644)
    before = outside.stat()
    root = make_lab(
        992, METADATA.format(path=str(outside), good=GOOD), expected=GOOD, slug="metadatos"
    )
    outcomes, report, missing = check_beside(cli, root, "992-metadatos")
    after = outside.stat()
    if "mountns" in missing:  # Landlock has no right for metadata: these land without it
        assert after.st_mode & 0o7777 == 0o4777 and after.st_mtime == 0
        assert "chmod hecho" in report["stdout"]
    else:
        assert (after.st_mode, after.st_mtime_ns) == (before.st_mode, before.st_mtime_ns)
        assert "user.compmath" not in os.listxattr(outside)
        assert "chmod rechazado 30" in report["stdout"]  # EROFS
    assert outcomes == {"992-metadatos": "coincide", "901-pasa": "coincide"}


SECRETS = {
    "SECRET_TOKEN": "s3cr3t-token",
    "GITHUB_TOKEN": "ghp_s3cr3t",
    "SSH_AUTH_SOCK": "/tmp/ssh-s3cr3t/agent.1",
    "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/s3cr3t/bus",
    "DOCKER_HOST": "unix:///var/run/s3cr3t.sock",
}
SNOOP = """\
import os


def run() -> dict:
    found = set()
    if any("s3cr3t" in value for value in os.environ.values()):
        found.add("entorno")
    me = os.readlink("/proc/self")
    for pid in os.listdir("/proc"):
        if pid.isdigit() and pid != me:
            try:
                with open(f"/proc/{pid}/environ", "rb") as handle:
                    if b"s3cr3t" in handle.read():
                        found.add("otro proceso")
            except OSError:
                pass
    print("encontrado:", sorted(found))
    return GOOD
""".replace("GOOD", repr(GOOD))


@pytest.mark.parametrize("off", ["", "env", "landlock", "landlock,mountns", "env,landlock,pidns"])
def test_the_runners_secrets_never_reach_a_lab(cli, make_lab, monkeypatch, off) -> None:
    """In the runner's environment, and in another process of the user's (a shell, say)."""
    import subprocess

    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    shell = subprocess.Popen(["sleep", "60"], env={**os.environ})
    try:
        switch_off(monkeypatch, off)
        root = make_lab(993, SNOOP, expected=GOOD, slug="secretos")
        outcomes, report, missing = check_beside(cli, root, "993-secretos")
    finally:
        shell.kill()
        shell.wait()
    assert outcomes == {"993-secretos": "coincide", "901-pasa": "coincide"}
    found = set()
    if "env" in missing:
        found.add("entorno")
    # Landlock, the user namespace (no capability over processes outside it) and its own /proc
    # each hide the others; as root without them, so does dropping every capability.
    if {"landlock", "pidns"} <= set(missing) and os.geteuid() != 0:
        found.add("otro proceso")
    assert f"encontrado: {sorted(found)}" in report["stdout"], report["stdout"]
