"""Grading fails closed: the layers that keep students apart, checked before any code runs.

`compmath grade` asks this system what it offers to confine a lab (the same probe the worker
makes, `compmath.execution.facilities`) before it reads a single submission, and refuses when one
of the layers in REQUIRED is missing, unless the instructor names the risk with
`--sin-aislamiento-completo`. Whatever is missing, required or not, is written into every record,
the report, the feedback and the resume fingerprint (records.py), so a grade earned with fewer
protections is never taken for one earned with all of them.

Why these layers (docs/integridad.md): each closes a way between two students that the others
leave open. The user and PID namespace ends every process a lab starts with the lab and hides the
host's and the other labs' processes; the mount namespace makes the tree read-only and covers the
submissions, the grades and the course; Landlock reads only from a closed list of roots (no other
copy of the course or the submissions on the disk, no key of the records) and writes only in the
lab's folder; seccomp denies sockets, ptrace and the other calls between processes (and the SysV
ones where there is no IPC namespace); the IPC namespace, where the execution layer offers one,
takes SysV objects away with each lab. Landlock and seccomp without namespaces still leave a lab's
children alive after it, and the namespaces without Landlock still leave other copies readable:
neither half alone keeps students apart, so both are required.
"""

from __future__ import annotations

from compmath.errors import CompmathError
from compmath.execution import facilities

RISK_OPTION = "--sin-aislamiento-completo"
EVERY_OPTION = "--todas-las-protecciones"
WANTED = ("pidns", "mountns", "ipcns", "landlock", "seccomp")
# the layers a grading needs; "ipcns" counts where the execution layer knows it
REQUIRED = tuple(name for name in WANTED if name in facilities.FACILITIES)
SHORT = {
    "landlock": "Landlock",
    "pidns": "espacio de usuario y de procesos",
    "pidfd": "pidfd",
    "prctl": "prctl",
    "rlimit": "límites de recursos",
    "seccomp": "seccomp",
    "mountns": "espacio de montaje",
    "netns": "espacio de red",
    "ipcns": "espacio de IPC",
    "env": "entorno mínimo",
}
NAMESPACES = (
    "deja crear espacios de nombres sin privilegios (Ubuntu: sudo sysctl -w "
    "kernel.apparmor_restrict_unprivileged_userns=0) o corrige como root"
)
REMEDY = {
    "pidns": NAMESPACES,
    "mountns": NAMESPACES,
    "ipcns": NAMESPACES,
    "netns": NAMESPACES,
    "landlock": "usa Linux ≥ 5.13 con Landlock activo",
    "seccomp": "instala libseccomp (apt install libseccomp2)",
    "pidfd": "usa Linux ≥ 5.3",
    "prctl": "corrige en Linux",
    "rlimit": "corrige en Linux",
    "env": "quita COMPMATH_SIN del entorno",
}


def probe() -> tuple[str, ...]:
    """The protections this system's labs would go without (the worker's own probe, run here
    before any student's code: a fork that tries the namespaces, Landlock's ABI, libseccomp)."""
    facilities.load_libc()
    return facilities.Probe().result().missing()


def named(missing: tuple[str, ...] | list[str]) -> str:
    """The protections by their short Spanish names: «Landlock, espacio de montaje»."""
    return ", ".join(SHORT.get(name, name) for name in missing)


def refuse_without(
    missing: tuple[str, ...] | list[str], risk_accepted: bool, *, every: bool = False
) -> None:
    """Refuse to grade (CompmathError: exit 2) when a required layer is missing and the
    instructor has not accepted the risk by name; with `every`, when any protection is."""
    if every and missing:
        raise CompmathError(
            f"se pidieron todas las protecciones y falta {named(missing)}",
            "; ".join(dict.fromkeys(REMEDY.get(n, NAMESPACES) for n in missing))
            + f"; o corrige sin {EVERY_OPTION}",
        )
    lacking = [name for name in REQUIRED if name in missing]
    if not lacking or risk_accepted:
        return
    remedies = list(dict.fromkeys(REMEDY[name] for name in lacking))
    if facilities.switched_off() & set(lacking):
        remedies.insert(0, "COMPMATH_SIN las apaga: quítala del entorno")
    raise CompmathError(
        f"no se corrige sin las protecciones que separan a los alumnos: falta {named(lacking)}",
        "; ".join(remedies) + "; o, sabiendo que un alumno podría leer o cambiar lo de otro, "
        f"repite la orden con {RISK_OPTION}",
    )
