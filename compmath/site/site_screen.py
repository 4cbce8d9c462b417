"""What `compmath site` prints: the verification, the pages written, the next thing to open."""

from __future__ import annotations

from compmath.present.layout import Block, Command, line, para
from compmath.site.build import BuildResult
from compmath.wording import count, seconds

OK, BAD = "✓", "✗"


def site_screen(result: BuildResult, out: str) -> list[Block]:
    """The build's summary: verified classes, stale ones by name, files written, where to look."""
    found = list(result.verifications.values())
    ran = sum(v.ran for v in found)
    verified = sum(v.verified for v in found)
    reused = f", {len(found) - ran} sin cambios desde su verificación" if ran < len(found) else ""
    blocks: list[Block] = []
    if verified:
        blocks.append(
            para(
                (
                    f"{OK} {verified} de "
                    f"{count(len(found), 'clase verificada', 'clases verificadas')}"
                    f" ({ran} {'ejecutada' if ran == 1 else 'ejecutadas'} ahora{reused})"
                    f" · {seconds(result.verify_seconds)}",
                    "green",
                )
            )
        )
    for stale in result.stale:
        blocks.append(
            para((f"{BAD} {stale.class_id}: {stale.message or stale.outcome.label}", "red"), hang=4)
        )
    if result.stale and not result.published:
        first = result.stale[0].class_id.split("-")[0]
        return [
            *blocks,
            para(
                (
                    f"{count(len(result.stale), 'clase no coincide', 'clases no coinciden')}"
                    " con su instantánea: la web no se ha escrito",
                    "bold red",
                )
            ),
            para(
                "siguiente: ",
                (f"compmath run {first}", "bold"),
                " (o publícala marcada como no verificada con --allow-stale)",
                hang=2,
            ),
        ]
    if result.stale:
        blocks.append(para(("publicadas como no verificadas (--allow-stale)", "yellow")))
    if result.missing_notebooks:
        missing = result.missing_notebooks
        blocks += [
            para(
                (
                    f"⚠ «Abrir en Colab» lleva a {missing[0]}"
                    + (f" (y {len(missing) - 1} más)" if len(missing) > 1 else "")
                    + ", que no está en el curso: en el repositorio daría un error 404",
                    "yellow",
                ),
                hang=2,
            ),
            para("escríbelos y súbelos: ", ("compmath notebook --all", "bold"), hang=2),
        ]
    written = (
        f"{OK} web en {out}/: {count(result.written, 'archivo escrito', 'archivos escritos')}, "
        f"{result.kept} sin cambios"
    )
    if result.removed:
        written += f", {result.removed} {'retirado' if result.removed == 1 else 'retirados'}"
    blocks += [
        para((f"{written} · {seconds(result.write_seconds)}", "green")),
        line("ábrela en el navegador:"),
        Command(f"{out}/index.html"),
    ]
    return blocks
