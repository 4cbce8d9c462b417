"""GAN: el juego minimax y la divergencia de Jensen-Shannon.

    V(D, G) = E_{x~p_d}[log D(x)] + E_{x~p_g}[log(1 − D(x))]
    D*(x)   = p_d(x) / (p_d(x) + p_g(x))
    V(D*, G) = −log 4 + 2 · JSD(p_d ‖ p_g),   0 ≤ JSD ≤ log 2   (en nats)
    con D = σ(a):  ∂/∂a log(1 − σ(a)) = −σ(a)          (pérdida saturante del generador)
                   ∂/∂a [−log σ(a)]   = −(1 − σ(a))    (pérdida no saturante)

Sobre un soporte finito las esperanzas son sumas, así que todo se calcula de forma exacta.

Referencias: Goodfellow et al., «Generative Adversarial Nets», NIPS 2014 (Advances in Neural
Information Processing Systems 27; proposición 1 y teorema 1); Lin, «Divergence Measures Based on
the Shannon Entropy», IEEE Trans. Inf. Theory, 1991 (la JSD y sus cotas).
"""

import numpy as np

P_DATOS = (0.1, 0.4, 0.4, 0.1)       # p_d sobre 4 puntos
P_GENERADOR = (0.25, 0.25, 0.25, 0.25)  # p_g: el generador reparte uniforme
D_ALTERNATIVO = (0.3, 0.6, 0.6, 0.3)  # un discriminador «razonable» pero no óptimo
DESPLAZAMIENTO = 0.05                # D* ± 0,05 como discriminadores alternativos
D_FALSO = 0.01                       # D(G(z)) al principio: D rechaza casi seguro
TOL = 1e-12                          # identidades que solo difieren por redondeo


def discriminador_optimo(p_d: np.ndarray, p_g: np.ndarray) -> np.ndarray:
    """D*(x) = p_d/(p_d + p_g), el máximo punto a punto de a log D + b log(1 − D)."""
    ### BEGIN SOLUTION
    d_opt = p_d / (p_d + p_g)                              # (puntos,)
    ### END SOLUTION
    return d_opt


def valor(d: np.ndarray, p_d: np.ndarray, p_g: np.ndarray) -> float:
    """V(D, G) como suma exacta; los puntos con probabilidad 0 no aportan (0 · log 0 = 0)."""
    datos = p_d > 0                                        # (puntos,) soporte de p_d
    generador = p_g > 0                                    # (puntos,) soporte de p_g
    return float(np.sum(p_d[datos] * np.log(d[datos]))
                 + np.sum(p_g[generador] * np.log(1.0 - d[generador])))


def kl(p: np.ndarray, q: np.ndarray) -> float:
    """KL(p ‖ q) = Σ p log(p/q) en nats, sobre el soporte de p."""
    soporte = p > 0
    return float(np.sum(p[soporte] * np.log(p[soporte] / q[soporte])))


def jsd(p: np.ndarray, q: np.ndarray) -> float:
    """JSD(p ‖ q) = ½ KL(p ‖ m) + ½ KL(q ‖ m) con la mezcla m = ½ (p + q)."""
    ### BEGIN SOLUTION
    m = 0.5 * (p + q)                                      # (puntos,) la mezcla
    divergencia = 0.5 * kl(p, m) + 0.5 * kl(q, m)          # en nats
    ### END SOLUTION
    return divergencia


def gradientes_respecto_al_logit(d_falso: float) -> tuple[float, float]:
    """Derivadas de las dos pérdidas del generador respecto al logit a, con σ(a) = D(G(z))."""
    a = np.log(d_falso / (1.0 - d_falso))                  # logit de D(G(z))
    sigma = 1.0 / (1.0 + np.exp(-a))                       # σ(a) = D(G(z))
    ### BEGIN SOLUTION
    saturante = -sigma                                     # ∂/∂a log(1 − σ(a))
    no_saturante = -(1.0 - sigma)                          # ∂/∂a [−log σ(a)]
    ### END SOLUTION
    return float(saturante), float(no_saturante)


def run(d_falso: float = D_FALSO, desplazamiento: float = DESPLAZAMIENTO,
        mezcla: float = 0.0) -> dict:
    if not 0.0 < d_falso < 1.0:
        raise ValueError(f"d_falso debe estar en (0, 1); se recibió {d_falso}")
    if not 0.0 <= mezcla <= 1.0:
        raise ValueError(f"mezcla debe estar en [0, 1]; se recibió {mezcla}")
    p_d = np.array(P_DATOS)
    # mezcla acerca el generador a los datos: 0 es el de la tabla, 1 lo iguala a p_data
    p_g = (1.0 - mezcla) * np.array(P_GENERADOR) + mezcla * p_d

    # Discriminador óptimo y valor del juego en él
    d_opt = discriminador_optimo(p_d, p_g)                 # (4,)
    v_opt = valor(d_opt, p_d, p_g)
    divergencia = jsd(p_d, p_g)

    # Cuatro discriminadores alternativos, recortados a (0, 1) para que el log exista
    alternativos = [np.full_like(d_opt, 0.5), d_opt + desplazamiento, d_opt - desplazamiento,
                    np.array(D_ALTERNATIVO)]
    valores_alt = [valor(np.clip(d, 1e-12, 1 - 1e-12), p_d, p_g) for d in alternativos]

    # Si el generador acierta (p_g = p_d): D* = ½ en todas partes y V = −log 4
    d_igual = discriminador_optimo(p_d, p_d)
    v_igual = valor(d_igual, p_d, p_d)

    saturante, no_saturante = gradientes_respecto_al_logit(d_falso)

    return {
        "distribuciones": {"datos": p_d, "generador": p_g},
        "discriminador_optimo": d_opt,
        "valor_en_d_optimo": v_opt,
        "jsd": divergencia,
        "valor_es_menos_log4_mas_2jsd": bool(abs(v_opt - (-np.log(4.0) + 2 * divergencia)) < TOL),
        "d_optimo_supera_a_otros": bool(all(v_opt >= v for v in valores_alt)),
        "si_pg_es_pdata_d_vale_un_medio": bool(np.max(np.abs(d_igual - 0.5)) < TOL
                                               and abs(v_igual + np.log(4.0)) < TOL),
        "gradiente_respecto_al_logit_con_d_001": {"saturante": saturante,
                                                  "no_saturante": no_saturante},
        "no_saturante_da_mas_gradiente": bool(abs(no_saturante) > abs(saturante)),
        "jsd_entre_0_y_log2": bool(0.0 <= divergencia <= np.log(2.0)),
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
