"""Hostile labs that try to reach another lab rather than the runner: a SysV segment left for a
later lab (in the same run and in the next), the worker's memory scraped for what earlier labs
printed and returned, a bit carried through the page cache, a `setsid` child that outlives its
lab while the batch goes on.

Each pairs a sender with a receiver in one `check` (and, where it matters, a second one), with
the layers that stop it on and off (COMPMATH_SIN); what the attack achieves is read from the
protections the report says were missing, so the same test holds as root and as an
unprivileged user.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import uuid
from pathlib import Path

import pytest

from tests.processes import LINUX, fresh_marker, leftovers
from tests.test_hostile_escape import switch_off

pytestmark = [
    pytest.mark.lento,  # attacks on real sandboxed labs, with and without each layer
    pytest.mark.skipif(not LINUX, reason="las capas que se prueban son de Linux"),
]

ANY = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}
HOST_IPC = os.readlink("/proc/self/ns/ipc") if LINUX else ""


def outcomes_of(cli, root: Path, *classes: str, jobs: int = 1) -> tuple[dict, dict, list[str]]:
    """`check` of `classes`: their outcomes, their reports by class, the missing protections."""
    result = cli(
        "check", *classes, "--root", str(root), "--json", "--jobs", str(jobs), "--timeout", "60"
    )
    assert "Traceback" not in result.err, result.err
    document = json.loads(result.out)
    reports = {c["clase"]: c for c in document["clases"]}
    outcomes = {name: c["resultado"] for name, c in reports.items()}
    return outcomes, reports, document["protecciones_ausentes"]


# ---------------------------------------------------------------------------------------------
# SysV shared memory: the oracle of issue 33 (one hole publishes, the other reads)

SYSV = """\
import ctypes, os

KEY, SIZE = {key}, {size}
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_int)


def run() -> dict:
    print("ipc", os.readlink("/proc/self/ns/ipc"))
    if {write}:
        ident = libc.shmget(KEY, SIZE, 0o1000 | 0o600)  # IPC_CREAT
        if ident < 0:
            print("shmget rechazado", ctypes.get_errno())
            return {{}}
        where = libc.shmat(ident, None, 0)
        ctypes.memset(where + 4096, 1, SIZE - 4096)  # real memory, not only reserved
        ctypes.memmove(where, b"{secret}", {length})
        libc.shmdt(ctypes.c_void_p(where))
        print("escrito")
    else:
        ident = libc.shmget(KEY, 0, 0)
        if ident < 0:
            print("no hay segmento", ctypes.get_errno())
            return {{}}
        where = libc.shmat(ident, None, 0o10000)  # SHM_RDONLY
        print("leido", ctypes.string_at(where, {length}).decode())
    return {{}}
"""


def host_segment(key: int) -> tuple[int, int] | None:
    """(id, size in bytes) of the host's SysV segment with `key`, or None."""
    for line in Path("/proc/sysvipc/shm").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[0]) == key:
            return int(fields[1]), int(fields[3])
    return None


def remove_segment(key: int) -> None:
    found = host_segment(key)
    if found:
        ctypes.CDLL(None).shmctl(found[0], 0, None)  # IPC_RMID


def sysv_labs(make_lab, key: int, secret: str, size: int) -> Path:
    for number, slug, write in ((980, "publica", True), (981, "copia", False)):
        source = SYSV.format(key=key, size=size, write=write, secret=secret, length=len(secret))
        root = make_lab(number, source, expected={}, schema=ANY, slug=slug)
    return root


@pytest.mark.parametrize("off", ["", "seccomp", "ipcns", "pidns", "pidns,seccomp", "seccomp,ipcns"])
def test_a_sysv_segment_reaches_no_other_lab(cli, make_lab, monkeypatch, off) -> None:
    """The publisher writes a secret into a 64 MiB segment with a known key; the copier, later
    in the same run and again in a second run, looks for it. Only without both the lab's IPC
    namespace and seccomp does it get there (and then the segment outlives the run)."""
    marker = switch_off(monkeypatch, off)
    key = int.from_bytes(os.urandom(3), "little") + 0x10000
    secret = f"SECRETO-{uuid.uuid4().hex}"
    root = sysv_labs(make_lab, key, secret, 64 * 1024**2)
    try:
        outcomes, reports, missing = outcomes_of(cli, root, "980-publica", "981-copia")
        fresh_marker(monkeypatch)  # the second run on a fresh worker
        _, later, _ = outcomes_of(cli, root, "981-copia")
        left = host_segment(key)
    finally:
        remove_segment(key)
    assert outcomes == {"980-publica": "coincide", "981-copia": "coincide"}
    published, copied = reports["980-publica"]["stdout"], reports["981-copia"]["stdout"]
    lands = {"ipcns", "seccomp"} <= set(missing)
    if lands:
        assert "escrito" in published and f"leido {secret}" in copied
        assert f"leido {secret}" in later["981-copia"]["stdout"]
        assert left is not None and left[1] == 64 * 1024**2
    else:
        assert secret not in copied + later["981-copia"]["stdout"]
        assert "no hay segmento" in copied and left is None
        if "seccomp" in missing:  # the segment was made, in the lab's own namespace
            assert "escrito" in published
        else:
            assert "shmget rechazado 1" in published  # EPERM
    if "ipcns" not in missing:
        for text in (published, copied):
            assert f"ipc {HOST_IPC}" not in text and "ipc ipc:[" in text
    assert leftovers(marker) == []


# ---------------------------------------------------------------------------------------------
# The worker's memory: what an earlier lab printed and returned

TELLS = """\
def run() -> dict:
    for _ in range(2000):
        print("NOTA PRIVADA {printed}")
    return {{"marca": "{returned}"}}
"""
# Scans its own readable memory for any `MARCA-…`/`SALIDA-…` string and compares their hashes
# with the ones it was given (the strings themselves would be in its own memory otherwise).
SCRAPES = """\
import ctypes, hashlib, os, re

WANTED = {wanted!r}
PATTERN = re.compile(rb"(?:MARCA|SALIDA)-[0-9a-f]{{32}}")
CHUNK = 1 << 22


def regions():
    with open("/proc/self/maps") as handle:
        for line in handle.read().splitlines():
            fields = line.split()
            start, end = (int(x, 16) for x in fields[0].split("-"))
            path = fields[5] if len(fields) > 5 else ""
            # memory written at run time: the heap, anonymous mappings, the stack
            if fields[1].startswith("rw") and path in ("", "[heap]", "[stack]"):
                yield start, end


def scan():
    found = set()
    try:
        mem = os.open("/proc/self/mem", os.O_RDONLY)
        read = lambda start, size: os.pread(mem, size, start)
        how = "/proc/self/mem"
    except OSError:
        read = ctypes.string_at
        how = "ctypes.string_at"
    spans = list(regions())
    for start, end in spans:
        position = start
        while position < end:
            size = min(CHUNK, end - position)
            try:
                data = read(position, size)
            except OSError:
                break
            for match in PATTERN.finditer(data):
                found.add(hashlib.sha256(match.group()).hexdigest())
            position += max(size - 64, 1) if size == CHUNK else size
    return found, how, len(spans)


def run() -> dict:
    own = b"MARCA-" + os.urandom(16).hex().encode()  # the control: the scan finds this one
    found, how, spans = scan()
    print("medio:", how, "regiones:", spans)
    print("propia:", hashlib.sha256(own).hexdigest() in found)
    print("ajenas:", sorted(name for name, digest in WANTED.items() if digest in found))
    return {{}}
"""


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("off", ["", "pidns", "landlock,seccomp", "prctl"])
def test_no_lab_finds_in_its_memory_what_an_earlier_lab_printed_or_returned(
    cli, make_lab, monkeypatch, off
) -> None:
    """The lab before it prints a private note and returns its outputs; the worker read both.
    A lab forked from the zygote scans all its writable memory and finds neither, in the same
    run or in the next one on the same worker, though it finds the marker it made itself.
    Without prctl there is no zygote (no subreaper adopts what it forks, as on macOS): forked
    from the worker right after that lab, the scan finds what the worker's heap still holds of
    them (one or both, whatever it has not reused), which is what the zygote is for."""
    marker = switch_off(monkeypatch, off)
    printed, returned = f"MARCA-{uuid.uuid4().hex}", f"SALIDA-{uuid.uuid4().hex}"
    root = make_lab(
        982,
        TELLS.format(printed=printed, returned=returned),
        expected={"marca": returned},
        schema=ANY,
        slug="cuenta",
    )
    wanted = {"impreso": digest(printed), "devuelto": digest(returned)}
    make_lab(983, SCRAPES.format(wanted=wanted), expected={}, schema=ANY, slug="rebusca")
    outcomes, reports, missing = outcomes_of(cli, root, "982-cuenta", "983-rebusca")
    assert outcomes == {"982-cuenta": "coincide", "983-rebusca": "coincide"}, reports
    assert printed in reports["982-cuenta"]["stdout"]
    for index, run in enumerate((reports, outcomes_of(cli, root, "983-rebusca")[1])):
        seen = run["983-rebusca"]["stdout"]  # the same worker again in the second
        assert "propia: True" in seen, seen
        if "prctl" not in missing:
            assert "ajenas: []" in seen, seen
        elif index == 0:  # the control: forked from the worker right after 982, the scan finds
            # what its heap still holds of 982's note and outputs (one or both)
            assert "ajenas: []" not in seen, seen
    assert leftovers(marker) == []


def test_without_a_zygote_the_notice_says_what_it_costs(cli, make_lab, monkeypatch) -> None:
    """Without prctl (macOS) there is no subreaper to adopt what a zygote forks: labs fork from
    the worker, and the notice says what that costs."""
    switch_off(monkeypatch, "prctl")
    root = make_lab(
        984, "def run() -> dict:\n    return {}\n", expected={}, schema=ANY, slug="sin-cigoto"
    )
    result = cli("check", "984-sin-cigoto", "--root", str(root))
    assert result.code == 0
    assert "cuya memoria guarda lo que vio de los anteriores" in " ".join(result.err.split())


# ---------------------------------------------------------------------------------------------
# The page cache: posix_fadvise(DONTNEED) sends, preadv2(RWF_NOWAIT) or mincore receives

SENDS = """\
import ctypes, os

PATH, BITS, STRIDE = {path!r}, {bits!r}, {stride}


def run() -> dict:
    fd = os.open(PATH, os.O_RDONLY)
    page = os.sysconf("SC_PAGE_SIZE")
    try:
        for index, bit in enumerate(BITS):
            if bit:
                os.posix_fadvise(fd, index * STRIDE, STRIDE, os.POSIX_FADV_DONTNEED)
        print("enviado")
    except OSError as exc:
        print("fadvise rechazado", exc.errno)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.readahead(fd, ctypes.c_long(0), ctypes.c_size_t(page)) != 0:  # a sender too
        print("readahead rechazado", ctypes.get_errno())
    os.close(fd)
    return {{}}
"""
RECEIVES = """\
import ctypes, mmap, os

PATH, COUNT, STRIDE = {path!r}, {count}, {stride}


def nowait(fd, page):
    bits, buffer = [], bytearray(page)
    for index in range(COUNT):
        try:  # a short read too: nothing was cached where it starts
            bits.append(0 if os.preadv(fd, [buffer], index * STRIDE, os.RWF_NOWAIT) else 1)
        except BlockingIOError:
            bits.append(1)  # not cached: evicted by the sender
    return bits


def resident(fd, page):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                          ctypes.c_int, ctypes.c_long)
    size = COUNT * STRIDE
    where = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
    vector = (ctypes.c_ubyte * (size // page))()
    failed = libc.mincore(ctypes.c_void_p(where), ctypes.c_size_t(size), vector)
    error = ctypes.get_errno()
    libc.munmap(ctypes.c_void_p(where), ctypes.c_size_t(size))
    if failed:
        raise OSError(error, "mincore")
    return [0 if vector[index * STRIDE // page] & 1 else 1 for index in range(COUNT)]


def word(bits):
    return bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))


def run() -> dict:
    fd = os.open(PATH, os.O_RDONLY)
    page = os.sysconf("SC_PAGE_SIZE")
    for name, receive in (("mincore", resident), ("nowait", nowait)):
        try:
            print(name, word(receive(fd, page)))
        except OSError as exc:
            print(name, "rechazado", exc.errno)
    os.close(fd)
    return {{}}
"""
MESSAGE = b"copiame!"
STRIDE = 1 << 21  # a bit per 2 MiB: a file's large folios (ext4, 6.x) are dropped whole


@pytest.mark.parametrize("off", ["", "seccomp"])
def test_the_page_cache_carries_no_bit_from_one_lab_to_the_next(
    cli, make_lab, monkeypatch, tmp_path, off
) -> None:
    """At --jobs 1 the sender evicts the pages of a shared file that spell its message; the
    receiver asks which pages are cached (mincore) or reads them without waiting (RWF_NOWAIT).
    With seccomp every one of those calls is refused; without it the message arrives (through
    mincore, at least)."""
    switch_off(monkeypatch, off)
    page = os.sysconf("SC_PAGE_SIZE")
    bits = [int(b) for byte in MESSAGE for b in f"{byte:08b}"]
    shared = tmp_path / "biblioteca.so"  # sparse: one page of data every STRIDE bytes
    with open(shared, "wb") as handle:
        for index in range(len(bits)):
            handle.seek(index * STRIDE)
            handle.write(os.urandom(page))
        handle.truncate(len(bits) * STRIDE)
        handle.flush()
        os.fsync(handle.fileno())  # clean pages: DONTNEED can drop them
    fd = os.open(shared, os.O_RDONLY)
    for index in range(len(bits)):  # every page cached before the sender runs
        os.pread(fd, page, index * STRIDE)
    os.close(fd)
    root = make_lab(
        985,
        SENDS.format(path=str(shared), bits=bits, stride=STRIDE),
        expected={},
        schema=ANY,
        slug="emisor",
    )
    make_lab(
        986,
        RECEIVES.format(path=str(shared), count=len(bits), stride=STRIDE),
        expected={},
        schema=ANY,
        slug="receptor",
    )
    outcomes, reports, missing = outcomes_of(cli, root, "985-emisor", "986-receptor")
    assert outcomes == {"985-emisor": "coincide", "986-receptor": "coincide"}, reports
    sent, received = reports["985-emisor"]["stdout"], reports["986-receptor"]["stdout"]
    if "seccomp" in missing:
        # mincore reads the cache without touching it; a RWF_NOWAIT miss starts a readahead
        # that a fast disk may finish before the read looks again, so that receiver is a race
        # (it carried the message as root here, not as an unprivileged user): not asserted
        assert "enviado" in sent and f"mincore {MESSAGE!r}" in received, received
    else:
        assert "fadvise rechazado 1" in sent and "readahead rechazado 1" in sent, sent
        assert "mincore rechazado 1" in received and "nowait rechazado 1" in received, received
        assert repr(MESSAGE) not in received


# ---------------------------------------------------------------------------------------------
# Orphans without a PID namespace: a setsid child ends with its lab, not with the batch

LEAVES = """\
import os, subprocess, sys, time

CODE = "import time; time.sleep(120)  # {tag}"


def run() -> dict:
    middle = os.fork()
    if middle == 0:  # a double fork: the grandchild leaves the lab's session and its parent
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", CODE])
        os._exit(0)
    os.waitpid(middle, 0)
    time.sleep(2)  # room for the watcher beside it to start and look, on a loaded machine too
    print("dejado")
    return {{}}
"""
WATCHES = """\
import os, time

TAG = "{tag}".encode()


def alive():
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{{pid}}/cmdline", "rb") as handle:
                    if TAG in handle.read():
                        return True
            except OSError:
                pass
    return False


def run() -> dict:
    deadline = time.monotonic() + {patience}
    while not alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    print("visto:", alive())
    while alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    print("vivo al final:", alive())
    return {{}}
"""


@pytest.mark.parametrize("off", ["", "pidns"])
def test_a_setsid_grandchild_ends_with_its_lab_while_the_batch_goes_on(
    cli, make_lab, monkeypatch, off
) -> None:
    """The watcher runs beside the lab that leaves an orphan (--jobs 2) and sees it die soon
    after that lab ends, while the watcher itself still runs: with a PID namespace the kernel
    ends it, without one the lab's supervisor (a subreaper) does."""
    marker = switch_off(monkeypatch, off)
    tag = f"huerfano-{uuid.uuid4().hex}"
    root = make_lab(987, LEAVES.format(tag=tag), expected={}, schema=ANY, slug="deja")
    # in its own PID namespace the watcher cannot see the orphan at all: it looks for a while
    # only, not the 40 s it gives the orphan where it can see it
    patience = 40 if off == "pidns" else 10
    make_lab(
        988, WATCHES.format(tag=tag, patience=patience), expected={}, schema=ANY, slug="vigila"
    )
    outcomes, reports, missing = outcomes_of(cli, root, "987-deja", "988-vigila", jobs=2)
    assert outcomes == {"987-deja": "coincide", "988-vigila": "coincide"}, reports
    assert "dejado" in reports["987-deja"]["stdout"]
    watched = reports["988-vigila"]["stdout"]
    if "pidns" in missing:  # without it, the watcher shares the system's /proc
        assert "visto: True" in watched, watched
    assert "vivo al final: False" in watched, watched
    assert leftovers(marker) == []


# ---------------------------------------------------------------------------------------------
# The same oracle through `compmath grade` (issue 33): hole 1 of 323 holds no formula and reads
# the frequencies that hole 2, graded in a program whose hole 1 is the course's, publishes

ORACLE_HOLE_1 = """\
import ctypes as _c
_libc = _c.CDLL(None, use_errno=True)
_libc.shmat.restype = _c.c_void_p
_libc.shmat.argtypes = (_c.c_int, _c.c_void_p, _c.c_int)
_id = _libc.shmget(KEY + d, 0, 0)
if _id >= 0:
    _p = _libc.shmat(_id, None, 0o10000)
    omega = np.frombuffer(_c.string_at(_p, 8 * (d // 2)), dtype=np.float64).copy()
else:
    omega = np.zeros(d // 2)
"""
ORACLE_HOLE_2 = """\
import ctypes as _c
_libc = _c.CDLL(None, use_errno=True)
_libc.shmat.restype = _c.c_void_p
_libc.shmat.argtypes = (_c.c_int, _c.c_void_p, _c.c_int)
_w = np.ascontiguousarray(frecuencias(d), dtype=np.float64)  # the course's hole 1, here
_id = _libc.shmget(KEY + d, _w.nbytes, 0o1000 | 0o600)
if _id >= 0:
    _c.memmove(_libc.shmat(_id, None, 0), _w.tobytes(), _w.nbytes)
angulos = np.outer(posiciones, frecuencias(d))
pe[:, 0::2] = np.sin(angulos)
pe[:, 1::2] = np.cos(angulos)
"""


@pytest.mark.parametrize("off", ["", "seccomp,ipcns"])
def test_a_hole_without_its_formula_gets_nothing_from_the_other_holes_program(
    cli, tmp_path, monkeypatch, off
) -> None:
    """Graded twice (`--jobs 1`): hole 1 computes nothing and reads what hole 2 published
    where the course's hole 1 ran. With the lab's IPC namespace or seccomp it scores 0 both
    times, beside an honest classmate; without both, the second run gives it the point."""
    from tests.test_grade import C323, grade, hand_in, holes_of, solved

    switch_off(monkeypatch, off)
    key = (int.from_bytes(os.urandom(2), "little") + 0x100) << 8
    entregas = tmp_path / "entregas"
    hand_in(entregas, "ana", {C323: solved(C323)})
    source = with_hole_in(solved(C323), 1, f"KEY = {key}\n" + ORACLE_HOLE_1)
    source = with_hole_in(source, 2, f"KEY = {key}\n" + ORACLE_HOLE_2)
    hand_in(entregas, "oraculo", {C323: source})
    scores = []
    try:
        for attempt in range(2):
            out = tmp_path / f"notas-{attempt}"
            degraded = ["--sin-aislamiento-completo"] if off else []  # grade fails closed
            result = grade(cli, entregas, out, "--clases", "323", "--jobs", "1", *degraded)
            assert result.code == 0, result.out + result.err
            assert holes_of(out, "ana")["323"] == [("bien", 1), ("bien", 1)]
            scores.append(holes_of(out, "oraculo")["323"][0][1])
    finally:
        # the default dimension, the hidden variants' and each student's own (323 gives each
        # student theirs: [practica.por_alumno])
        for d in (4, 6, 8, 10, 12, 14, 16, 18, 20, 24):
            remove_segment(key + d)
    if off:  # both layers switched off: the second run finds what the first one left
        assert scores[1] == 1, scores
    else:
        assert scores == [0, 0], scores


def with_hole_in(source: str, number: int, code: str) -> str:
    """`source` with hole `number` holding `code` (tests.test_grade.with_hole, on any text)."""
    from compmath.holes.regions import student_regions

    region = next(r for r in student_regions(source) if r.number == number)
    lines = source.splitlines()
    body = [f"{region.indent}{line}" for line in code.splitlines()]
    return "\n".join(lines[: region.begin + 1] + body + lines[region.end :]) + "\n"
