"""Flujos normalizantes: densidad exacta por cambio de variable.

    x = g(z),  z = f(x) = g⁻¹(x):   log p_X(x) = log p_Z(f(x)) + log |det ∂f/∂x|
    acoplamiento afín (Real NVP), 2D:  x₁ = z₁,   x₂ = z₂ · exp(s(z₁)) + t(z₁)
      inversa:  z₁ = x₁,   z₂ = (x₂ − t(x₁)) · exp(−s(x₁))
      ∂f/∂x es triangular inferior  ⇒  log |det ∂f/∂x| = −s(x₁)
    flujo afín x = A z + b:  log p_X(x) = log N(A⁻¹(x − b); 0, I) − log |det A| = log N(x; b, A Aᵀ)

Con s(u) = ½ tanh(u) y t(u) = 0.8 u como «redes» de la capa y p_Z = N(0, I).

Referencia: Dinh, Sohl-Dickstein y Bengio, «Density Estimation using Real NVP», ICLR 2017.
"""

import numpy as np

X1 = 0.5                       # punto x = (x₁, x₂) donde se evalúa la densidad
X2 = 1.0
ESCALA_S = 0.5                 # s(u) = 0.5 · tanh(u): log-escala acotada en [−½, ½]
PENDIENTE_T = 0.8              # t(u) = 0.8 · u: traslación
LIMITE = 8.0                   # rejilla [−8, 8]² para integrar la densidad
PASO = 0.02                    # h de la suma de Riemann
H_DIFERENCIAS = 1e-5           # paso de las diferencias centrales del jacobiano
A = ((2.0, 0.0), (1.0, 0.5))   # matriz del flujo afín
B = (1.0, -1.0)                # traslación del flujo afín
X_AFIN = (0.3, 0.2)            # punto donde se evalúa el flujo afín
TOL_EXACTA = 1e-12             # identidades que solo difieren por redondeo
TOL_DIFERENCIAS = 1e-8         # error admitido a las diferencias centrales
TOL_TRIANGULAR = 1e-9          # |J₁₂| numérico que se considera cero
TOL_INTEGRAL = 1e-3            # |integral − 1| admitido a la suma de Riemann


def s(u: np.ndarray) -> np.ndarray:
    """Log-escala de la capa de acoplamiento."""
    return ESCALA_S * np.tanh(u)


def t(u: np.ndarray) -> np.ndarray:
    """Traslación de la capa de acoplamiento."""
    return PENDIENTE_T * u


def g(z: np.ndarray) -> np.ndarray:
    """Sentido generativo z → x; z tiene forma (..., 2)."""
    z1, z2 = z[..., 0], z[..., 1]
    return np.stack([z1, z2 * np.exp(s(z1)) + t(z1)], axis=-1)      # (..., 2)


def f(x: np.ndarray) -> np.ndarray:
    """Sentido de normalización x → z, la inversa exacta de g; x tiene forma (..., 2)."""
    x1, x2 = x[..., 0], x[..., 1]
    return np.stack([x1, (x2 - t(x1)) * np.exp(-s(x1))], axis=-1)  # (..., 2)


def log_det_f(x: np.ndarray) -> np.ndarray:
    """log |det ∂f/∂x| = −s(x₁): el producto de la diagonal del jacobiano triangular."""
    return -s(x[..., 0])                                            # (...,)


def log_normal_estandar(z: np.ndarray) -> np.ndarray:
    """log N(z; 0, I) en dimensión 2, sobre el último eje."""
    return -np.log(2 * np.pi) - 0.5 * np.sum(z**2, axis=-1)         # (...,)


def log_densidad(x: np.ndarray) -> np.ndarray:
    """log p_X(x) = log p_Z(f(x)) + log |det ∂f/∂x|."""
    return log_normal_estandar(f(x)) + log_det_f(x)                 # (...,)


def jacobiano_numerico(x: np.ndarray, h: float) -> np.ndarray:
    """∂f/∂x por diferencias centrales: la columna j es (f(x + h e_j) − f(x − h e_j)) / 2h."""
    jac = np.empty((2, 2))                                          # (salida, entrada)
    for j in range(2):
        e = np.zeros(2)
        e[j] = h
        jac[:, j] = (f(x + e) - f(x - e)) / (2 * h)
    return jac


def integral_en_rejilla(limite: float, paso: float) -> float:
    """Suma de Riemann de p_X en la rejilla [−limite, limite]² con nodos separados `paso`."""
    nodos = int(round(2 * limite / paso)) + 1
    if nodos > 4001:
        raise ValueError(f"la rejilla tendría {nodos}² nodos; aumente el paso o reduzca el límite")
    eje = np.linspace(-limite, limite, nodos)                       # (nodos,)
    rejilla = np.stack(np.meshgrid(eje, eje, indexing="ij"), axis=-1)  # (nodos, nodos, 2)
    return float(np.sum(np.exp(log_densidad(rejilla))) * paso**2)


def log_normal(x: np.ndarray, media: np.ndarray, cov: np.ndarray) -> float:
    """log N(x; media, cov) con la forma cuadrática resuelta, sin invertir cov."""
    d = len(x)
    r = x - media                                                   # (d,)
    _, log_det = np.linalg.slogdet(cov)
    return float(-0.5 * (d * np.log(2 * np.pi) + log_det + r @ np.linalg.solve(cov, r)))


def run(x1: float = X1, x2: float = X2, limite: float = LIMITE, paso: float = PASO) -> dict:
    if limite <= 0 or paso <= 0:
        raise ValueError("limite y paso deben ser positivos")
    x = np.array([x1, x2])

    # Normalizar y volver: f y g son inversas exactas
    z = f(x)                                                        # (2,)
    x_vuelta = g(z)                                                 # (2,)

    # Log-determinante: fórmula frente a diferencias centrales + slogdet
    jac = jacobiano_numerico(x, H_DIFERENCIAS)                      # (2, 2)
    _, log_det_numerico = np.linalg.slogdet(jac)
    log_det_formula = float(log_det_f(x))

    # Densidad en x y su integral en la rejilla
    log_p = float(log_densidad(x))
    integral = integral_en_rejilla(limite, paso)

    # Flujo afín: cambio de variable frente a la gaussiana N(b, A Aᵀ)
    a = np.array(A)
    b = np.array(B)
    x_afin = np.array(X_AFIN)
    z_afin = np.linalg.solve(a, x_afin - b)                         # A⁻¹ (x − b)
    cambio = float(log_normal_estandar(z_afin) - np.linalg.slogdet(a)[1])
    gaussiana = log_normal(x_afin, b, a @ a.T)

    return {
        "inversa": {"x": x, "z": z},
        "reconstruccion_exacta": bool(np.max(np.abs(x_vuelta - x)) < TOL_EXACTA),
        "log_det_jacobiano": {"formula": log_det_formula, "numerico": log_det_numerico},
        "log_det_coincide": bool(abs(log_det_formula - log_det_numerico) < TOL_DIFERENCIAS),
        "jacobiano_triangular": bool(abs(jac[0, 1]) < TOL_TRIANGULAR),
        "log_densidad_x": log_p,
        "integral_de_la_densidad": integral,
        "densidad_integra_uno": bool(abs(integral - 1.0) < TOL_INTEGRAL),
        "flujo_afin": {"cambio_de_variable": cambio, "gaussiana": gaussiana},
        "flujo_afin_coincide_con_gaussiana": bool(abs(cambio - gaussiana) < TOL_EXACTA),
    }


if __name__ == "__main__":
    from compmath.labmain import main

    main(run)
