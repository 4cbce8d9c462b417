"""Flujos normalizantes: densidad exacta por cambio de variable.

    x = g(z),  z = f(x) = g⁻¹(x):   log p_X(x) = log p_Z(f(x)) + log |det ∂f/∂x|
    capa de acoplamiento afín, 2D, en sentido generativo (z → x):
      x₁ = z₁,   x₂ = z₂ · exp(s(z₁)) + t(z₁)
    su inversa (x → z):  z₁ = x₁,   z₂ = (x₂ − t(x₁)) · exp(−s(x₁))
      ∂f/∂x es triangular inferior  ⇒  log |det ∂f/∂x| = −s(x₁)
    varias capas que alternan la coordenada fija: los log-determinantes se suman
    flujo afín x = A z + b:  log p_X(x) = log N(A⁻¹(x − b); 0, I) − log |det A| = log N(x; b, A Aᵀ)

Con s(u) = ½ tanh(u) y t(u) = 0.8 u como «redes» de la capa y p_Z = N(0, I).

Ojo al sentido: Dinh et al. escriben la misma capa en el sentido de los datos al latente, y allí el
log-determinante es +s; aquí la capa es generativa (como tfp.bijectors.RealNVP) y el de f es −s.

Referencia: Dinh, Sohl-Dickstein y Bengio, «Density Estimation using Real NVP», ICLR 2017.
"""

import numpy as np

X1 = 0.5                       # punto x = (x₁, x₂) donde se evalúa la densidad
X2 = 1.0
CAPAS = 1                      # capas de acoplamiento; la capa k deja fija la coordenada k mod 2
ESCALA_S = 0.5                 # s(u) = 0.5 · tanh(u): log-escala acotada en [−½, ½]
PENDIENTE_T = 0.8              # t(u) = 0.8 · u: traslación
LIMITE = 8.0                   # rejilla [−8, 8]² para integrar la densidad
PASO = 0.02                    # h de la suma de Riemann
MAX_NODOS = 4001               # nodos por eje que admite la rejilla (memoria)
H_DIFERENCIAS = 1e-5           # paso de las diferencias centrales del jacobiano
A = ((2.0, 0.0), (1.0, 2.0))   # matriz del flujo afín; det A = 4, así que el volumen cuenta
B = (1.0, -1.0)                # traslación del flujo afín
X_AFIN_1 = 0.3                 # punto (x_afin_1, x_afin_2) donde se evalúa el flujo afín
X_AFIN_2 = 0.2
A_AFIN_22 = 2.0                # entrada (2, 2) de A; negativa, det A < 0 (invierte la orientación)
TOL_EXACTA = 1e-12             # identidades que solo difieren por redondeo
TOL_DIFERENCIAS = 1e-8         # error admitido a las diferencias centrales
TOL_INTEGRAL = 1e-3            # |integral − 1| admitido a la suma de Riemann


def s(u: np.ndarray) -> np.ndarray:
    """Log-escala de la capa de acoplamiento."""
    return ESCALA_S * np.tanh(u)


def t(u: np.ndarray) -> np.ndarray:
    """Traslación de la capa de acoplamiento."""
    return PENDIENTE_T * u


def capa_generativa(z: np.ndarray, fija: int) -> np.ndarray:
    """Una capa z → x: la coordenada `fija` pasa intacta y parametriza la afín de la otra."""
    otra = 1 - fija
    x = z.copy()                                                    # (..., 2)
    x[..., otra] = z[..., otra] * np.exp(s(z[..., fija])) + t(z[..., fija])
    return x


def capa_normalizadora(x: np.ndarray, fija: int) -> tuple[np.ndarray, np.ndarray]:
    """Una capa x → z, la inversa explícita de capa_generativa, y su log |det ∂z/∂x|."""
    otra = 1 - fija
    z = x.copy()                                                    # (..., 2)
    ### BEGIN SOLUTION
    z[..., otra] = (x[..., otra] - t(x[..., fija])) * np.exp(-s(x[..., fija]))
    log_det = -s(x[..., fija])                                      # (...,) jacobiano triangular
    ### END SOLUTION
    return z, log_det


def g(z: np.ndarray, capas: int) -> np.ndarray:
    """Sentido generativo z → x: las capas en orden 0, 1, …; z tiene forma (..., 2)."""
    x = z
    for k in range(capas):
        x = capa_generativa(x, fija=k % 2)
    return x                                                        # (..., 2)


def f(x: np.ndarray, capas: int) -> tuple[np.ndarray, np.ndarray]:
    """Sentido de normalización x → z = g⁻¹(x), deshaciendo las capas de la última a la primera.

    Devuelve z y log |det ∂f/∂x|, la suma de los log-determinantes de las capas.
    """
    z = x
    log_det = np.zeros(x.shape[:-1])                                # (...,)
    for k in reversed(range(capas)):
        z, log_det_capa = capa_normalizadora(z, fija=k % 2)
        log_det = log_det + log_det_capa
    return z, log_det                                               # (..., 2), (...,)


def log_normal_estandar(z: np.ndarray) -> np.ndarray:
    """log N(z; 0, I) en dimensión 2, sobre el último eje."""
    return -np.log(2 * np.pi) - 0.5 * np.sum(z**2, axis=-1)         # (...,)


def log_densidad(x: np.ndarray, capas: int) -> np.ndarray:
    """log p_X(x) = log p_Z(f(x)) + log |det ∂f/∂x|."""
    ### BEGIN SOLUTION
    z, log_det = f(x, capas)                                        # (..., 2), (...,)
    log_p = log_normal_estandar(z) + log_det                        # (...,)
    ### END SOLUTION
    return log_p


def jacobiano_numerico(x: np.ndarray, capas: int, h: float) -> np.ndarray:
    """∂f/∂x de f entera (todas las capas) por diferencias centrales.

    La columna j es (f(x + h e_j) − f(x − h e_j)) / 2h: no usa la fórmula del log-determinante.
    """
    jac = np.empty((2, 2))                                          # (salida, entrada)
    for j in range(2):
        e = np.zeros(2)
        e[j] = h
        jac[:, j] = (f(x + e, capas)[0] - f(x - e, capas)[0]) / (2 * h)
    return jac


def integral_en_rejilla(capas: int, limite: float, paso: float) -> float:
    """Suma de Riemann de p_X en la rejilla [−limite, limite]² con nodos separados `paso`."""
    nodos = int(round(2 * limite / paso)) + 1
    if nodos > MAX_NODOS:
        raise ValueError(f"la rejilla tendría {nodos}² nodos; aumente el paso o reduzca el límite")
    eje = np.linspace(-limite, limite, nodos)                       # (nodos,)
    rejilla = np.stack(np.meshgrid(eje, eje, indexing="ij"), axis=-1)  # (nodos, nodos, 2)
    return float(np.sum(np.exp(log_densidad(rejilla, capas))) * paso**2)


def log_normal(x: np.ndarray, media: np.ndarray, cov: np.ndarray) -> float:
    """log N(x; media, cov) con la forma cuadrática resuelta, sin invertir cov."""
    d = len(x)
    r = x - media                                                   # (d,)
    _, log_det = np.linalg.slogdet(cov)
    return float(-0.5 * (d * np.log(2 * np.pi) + log_det + r @ np.linalg.solve(cov, r)))


def log_densidad_afin(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """Cambio de variable del flujo afín x = A z + b: log N(A⁻¹(x − b); 0, I) − log |det A|."""
    ### BEGIN SOLUTION
    z = np.linalg.solve(a, x - b)                                   # (2,) A⁻¹ (x − b)
    log_p = log_normal_estandar(z) - np.linalg.slogdet(a)[1]        # log |det ∂f/∂x| = −log |det A|
    ### END SOLUTION
    return float(log_p)


def run(x1: float = X1, x2: float = X2, capas: int = CAPAS, limite: float = LIMITE,
        paso: float = PASO, x_afin_1: float = X_AFIN_1,
        x_afin_2: float = X_AFIN_2, a_afin_22: float = A_AFIN_22) -> dict:
    if limite <= 0 or paso <= 0:
        raise ValueError("limite y paso deben ser positivos")
    if capas < 1:
        raise ValueError(f"capas debe ser >= 1; se recibió {capas}")
    if a_afin_22 == 0:
        raise ValueError("a_afin_22 no puede ser 0: A sería singular y el flujo no se invertiría")
    x = np.array([x1, x2])

    # Normalizar y volver: f y g son inversas exactas
    z, log_det_formula = f(x, capas)                                # (2,), ()
    x_vuelta = g(z, capas)                                          # (2,)

    # Jacobiano de f entera por diferencias centrales, sin usar la fórmula del log-det
    jac = jacobiano_numerico(x, capas, H_DIFERENCIAS)               # (2, 2)
    _, log_det_numerico = np.linalg.slogdet(jac)

    # Densidad en x y su integral en la rejilla
    log_p = float(log_densidad(x, capas))
    integral = integral_en_rejilla(capas, limite, paso)

    # Flujo afín: cambio de variable frente a la gaussiana N(b, A Aᵀ)
    a = np.array(A)                                                 # (2, 2)
    a[1, 1] = a_afin_22
    b = np.array(B)
    x_afin = np.array([x_afin_1, x_afin_2])
    cambio = log_densidad_afin(x_afin, a, b)
    gaussiana = log_normal(x_afin, b, a @ a.T)

    return {
        "inversa": {"x": x, "z": z},
        "reconstruccion_exacta": bool(np.max(np.abs(x_vuelta - x)) < TOL_EXACTA),
        "log_det_jacobiano": {"formula": float(log_det_formula), "numerico": log_det_numerico},
        "log_det_coincide": bool(abs(log_det_formula - log_det_numerico) < TOL_DIFERENCIAS),
        # Se muestra, no se afirma: con una capa J₁₂ = 0 (triangular); con dos o más, lleno
        "jacobiano_numerico": jac,
        "log_densidad_x": log_p,
        "integral_de_la_densidad": integral,
        "densidad_integra_uno": bool(abs(integral - 1.0) < TOL_INTEGRAL),
        "flujo_afin": {"cambio_de_variable": cambio, "gaussiana": gaussiana},
        "flujo_afin_coincide_con_gaussiana": bool(abs(cambio - gaussiana) < TOL_EXACTA),
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
