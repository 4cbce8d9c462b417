"""What this system offers to confine a lab, probed once by the worker; COMPMATH_SIN turns some off.

Ten facilities, each with a fallback (docs/integridad.md): Landlock (writes and signals),
a user and PID namespace per lab (nothing it starts outlives it; a cap on its processes), an
IPC namespace per lab (its SysV objects die with it; as root, without a user namespace), pidfd
(the lab's end wakes the worker), prctl (parent-death signals, the subreaper, a worker that
cannot be traced), enforced limits (address space, file size), seccomp (no sockets, no io_uring,
ptrace, bpf…), a mount namespace (a read-only tree, a tmpfs folder), a network namespace and a
minimal environment.
`COMPMATH_SIN=landlock,pidns,ipcns,pidfd,prctl,rlimit,seccomp,mountns,netns,env` switches any
of them off, so that the tests can cover each fallback on Linux; it is read here
and nowhere else.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from compmath.execution import syscalls
from compmath.execution.environment import named_off
from compmath.execution.syscalls import CLONE_NEWIPC, CLONE_NEWNET, CLONE_NEWNS

FACILITIES = (
    "landlock",
    "pidns",
    "ipcns",
    "pidfd",
    "prctl",
    "rlimit",
    "seccomp",
    "mountns",
    "netns",
    "env",
)
WHAT_IS_LOST = {
    "landlock": (
        "Landlock: un laboratorio puede escribir fuera de su carpeta y enviar señales, y al "
        "corregir, leer las entregas de otros alumnos que haya en el disco fuera de las "
        "carpetas ocultas"
    ),
    "pidns": (
        "espacio de nombres: los procesos que deja un laboratorio se barren al terminar, "
        "y no tienen tope de número"
    ),
    "ipcns": (
        "espacio IPC: los laboratorios comparten la memoria, las colas y los semáforos System V "
        "del sistema (sin seccomp, que los niega, uno podría dejar datos a otro)"
    ),
    "pidfd": (
        "pidfd: el fin de cada laboratorio se comprueba cada 5 ms; los laboratorios se bifurcan "
        "del trabajador, cuya memoria guarda lo que vio de los anteriores"
    ),
    "prctl": (
        "prctl: sin PDEATHSIG, subreaper ni trabajador protegido contra ptrace; los "
        "laboratorios se bifurcan del trabajador, cuya memoria guarda lo que vio de los "
        "anteriores"
    ),
    "rlimit": (
        "límite de memoria: se comprueba cuando el laboratorio termina; los archivos que "
        "escribe no tienen tope de tamaño"
    ),
    "seccomp": "seccomp: un laboratorio puede abrir sockets (red, tmux, Docker, D-Bus), usar "
    "io_uring, ptrace o bpf, memoria System V y memfd que su límite no cuenta, y ver o vaciar "
    "la caché de páginas (un canal hacia el laboratorio siguiente)",
    "mountns": "vista de solo lectura: un laboratorio puede cambiar permisos, fechas y atributos "
    "de archivos de fuera, y su carpeta no tiene tope de tamaño; al corregir, sin Landlock, "
    "puede leer las entregas de otros alumnos",
    "netns": "espacio de red: un laboratorio comparte la red del sistema",
    "env": "entorno mínimo: un laboratorio ve todas las variables de entorno del ejecutor",
}
# The namespace probe's exit code, bit by bit: PROBED_OK with a user and PID namespace, plus
# one bit for each namespace that works inside it; PROBED_IPC_ALONE, an IPC namespace without
# them (root, where user namespaces are refused or switched off).
PROBED_OK, PROBED_NET, PROBED_MOUNT, PROBED_IPC, PROBED_IPC_ALONE = 64, 1, 2, 4, 8


def switched_off() -> frozenset[str]:
    """The facilities COMPMATH_SIN turns off (a testing aid; unknown names are ignored)."""
    return frozenset(name for name in named_off(os.environ) if name in FACILITIES)


def load_libc() -> None:
    """Load the C library once in the worker (unless COMPMATH_SIN turns prctl off)."""
    if "prctl" not in switched_off():
        syscalls.load_libc()


def _probe_namespaces() -> int:
    """Fork a child that tries the namespaces a lab will get; its pid (-1 if it cannot fork).

    It exits with PROBED_OK plus a bit for each of the network, mount and IPC namespaces that
    work (the mount one with the lab's whole read-only view); without a user and PID namespace,
    PROBED_IPC_ALONE if an IPC namespace works by itself (root), anything else when none does."""
    libc = syscalls.libc()
    if libc is None:
        return -1
    off = switched_off()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            if "pidns" not in off and syscalls.enter_namespaces():
                inner = os.fork()
                if inner == 0:
                    os._exit(PROBED_OK | _probe_inside())
                status = os.waitpid(inner, 0)[1]
                code = os.waitstatus_to_exitcode(status)
            elif "ipcns" not in off and int(libc.unshare(CLONE_NEWIPC)) == 0:
                code = PROBED_IPC_ALONE
        finally:
            os._exit(code)
    return pid


def _probe_inside() -> int:
    from compmath.execution import isolation  # ctypes and mount calls: only in the probe

    libc = syscalls.libc()
    found = 0
    if int(libc.unshare(CLONE_NEWIPC)) == 0:
        found |= PROBED_IPC
    if int(libc.unshare(CLONE_NEWNET)) == 0:
        found |= PROBED_NET
    try:
        if int(libc.unshare(CLONE_NEWNS)) == 0:
            isolation.read_only_view(os.environ.get("TMPDIR") or "/tmp")
            found |= PROBED_MOUNT
    except OSError:
        pass
    return found


@dataclass(frozen=True)
class Facilities:
    """What the worker can use to confine its labs."""

    landlock_abi: int = 0  # 0: no Landlock
    pidns: bool = False
    ipcns: bool = False  # with the user namespace where pidns, else by itself (root)
    pidfd: bool = False
    prctl: bool = False
    rlimit: bool = False
    seccomp: bool = False
    mountns: bool = False
    netns: bool = False
    env: bool = False

    def namespace_flags(self) -> int:
        """The namespaces besides user and PID that each lab's supervisor enters."""
        return (
            (CLONE_NEWNS if self.mountns else 0)
            | (CLONE_NEWNET if self.netns else 0)
            | (CLONE_NEWIPC if self.ipcns else 0)
        )

    def missing(self) -> tuple[str, ...]:
        """The names (as COMPMATH_SIN spells them) of the facilities this worker goes without."""
        have = {
            "landlock": self.landlock_abi > 0,
            "pidns": self.pidns,
            "ipcns": self.ipcns,
            "pidfd": self.pidfd,
            "prctl": self.prctl,
            "rlimit": self.rlimit,
            "seccomp": self.seccomp,
            "mountns": self.mountns,
            "netns": self.netns,
            "env": self.env,
        }
        return tuple(name for name in FACILITIES if not have[name])


class Probe:
    """The worker's probe: started before numpy is imported (a small fork), read after."""

    def __init__(self) -> None:
        self.namespaces = _probe_namespaces()

    def result(self) -> Facilities:
        from compmath.execution import landlock, seccomp

        off = switched_off()
        probed = 0
        if self.namespaces > 0:
            probed = os.waitstatus_to_exitcode(os.waitpid(self.namespaces, 0)[1])
        pidns = probed & ~(PROBED_NET | PROBED_MOUNT | PROBED_IPC) == PROBED_OK
        ipcns = bool(probed & PROBED_IPC) if pidns else probed == PROBED_IPC_ALONE
        has_prctl = syscalls.libc() is not None
        pidfd = False
        if hasattr(os, "pidfd_open") and "pidfd" not in off:
            try:
                os.close(os.pidfd_open(os.getpid()))
                pidfd = True
            except OSError:
                pass
        return Facilities(
            landlock_abi=landlock.abi() if has_prctl and "landlock" not in off else 0,
            pidns=pidns,
            ipcns=ipcns and "ipcns" not in off,
            pidfd=pidfd,
            prctl=has_prctl,
            rlimit=sys.platform.startswith("linux") and "rlimit" not in off,
            seccomp=has_prctl and "seccomp" not in off and seccomp.prepare(),
            mountns=pidns and bool(probed & PROBED_MOUNT) and "mountns" not in off,
            netns=pidns and bool(probed & PROBED_NET) and "netns" not in off,
            env="env" not in off,
        )


def notice(missing: tuple[str, ...] | list[str]) -> str:
    """One Spanish line naming the protections this command ran without ('' when none)."""
    if not missing:
        return ""
    return "aviso: protecciones ausentes en este sistema: " + "; ".join(
        WHAT_IS_LOST[name] for name in missing
    )
