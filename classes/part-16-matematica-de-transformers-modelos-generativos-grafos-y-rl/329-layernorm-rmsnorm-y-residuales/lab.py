"""El bloque Transformer: LayerNorm, RMSNorm y residuales.

    LayerNorm(x) = (x − μ) / √(σ² + ε) ⊙ γ + β,   μ = media(x),  σ² = media((x − μ)²)  (sesgada)
    RMSNorm(x)   = x / √(media(x²) + ε) ⊙ g,      ε = 1e-5 dentro de la raíz
    bloque pre-LN:  h = x + Atn(LN(x));   y = h + MLP(LN(h))
    parámetros por bloque (d_ff = 4d, con sesgos) = (4d² + 4d) + (8d² + 5d) + 4d = 12d² + 13d
    GPT-2 small = V·d + n_ctx·d + L·(12d² + 13d) + 2d   (embedding de salida atado al de entrada)
    bloque SwiGLU sin sesgos (Llama) = 4d² + 3·d·d_ff + 2d;   con d_ff = 8d/3 queda 12d² + 2d

Las normalizaciones actúan sobre las características de cada token, no sobre el lote.

Referencias: Ba, Kiros y Hinton, «Layer Normalization», 2016; Zhang y Sennrich, «Root Mean Square
Layer Normalization», NeurIPS 2019; Xiong et al., «On Layer Normalization in the Transformer
Architecture», ICML 2020; He et al., «Deep Residual Learning», CVPR 2016; Radford et al.,
«Language Models are Unsupervised Multitask Learners», 2019 (la configuración de GPT-2);
Shazeer, «GLU Variants Improve Transformer», 2020; Touvron et al., «LLaMA», 2023.
"""

import numpy as np

X = np.array([1.0, 2.0, 3.0, 6.0])   # un vector de activaciones de un token, d = 4
EPS = 1e-5                           # como torch.nn.LayerNorm
DESPLAZAMIENTO = 10.0                # x + 10
ESCALA = 3.0                         # 3x (factor positivo)
TOLERANCIA_DESPLAZAMIENTO = 1e-6
TOLERANCIA_ESCALA = 1e-5             # el ε hace que la invariancia a escala sea solo aproximada
TOLERANCIA_EXACTA = 1e-12

# Bloque pequeño para la prueba residual: 3 tokens de dimensión 4, pesos aleatorios fijos.
SEMILLA = 0
TOKENS_BLOQUE = 3

# GPT-2 small (Radford et al. 2019; configuración por defecto de GPT2Config)
D_MODELO = 768
VOCABULARIO = 50_257
CONTEXTO = 1_024
CAPAS = 12

# Llama 7B (Touvron et al. 2023): RMSNorm, MLP SwiGLU, ningún sesgo, embeddings sin atar
D_LLAMA = 4_096
VOCABULARIO_LLAMA = 32_000
CAPAS_LLAMA = 32
MULTIPLO_FFN = 256                   # el código de Llama redondea d_ff al múltiplo de 256 siguiente


def layernorm(x: np.ndarray, eps: float = EPS, gamma: float | np.ndarray = 1.0,
              beta: float | np.ndarray = 0.0) -> np.ndarray:
    """Normaliza cada fila (un token) sobre su última dimensión."""
    ### BEGIN SOLUTION
    mu = x.mean(axis=-1, keepdims=True)                        # (..., 1)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)         # (..., 1) varianza sesgada
    x_norm = (x - mu) / np.sqrt(var + eps)                     # (..., d) media 0, varianza ≈ 1
    ### END SOLUTION
    return x_norm * gamma + beta                               # (..., d)


def rmsnorm(x: np.ndarray, eps: float = EPS, g: float | np.ndarray = 1.0) -> np.ndarray:
    """Divide por la raíz de la media de los cuadrados: sin centrar."""
    ### BEGIN SOLUTION
    ms = (x ** 2).mean(axis=-1, keepdims=True)                 # (..., 1) media de los cuadrados
    x_norm = x / np.sqrt(ms + eps)                             # (..., d) rms ≈ 1
    ### END SOLUTION
    return x_norm * g                                          # (..., d)


def softmax_filas(s: np.ndarray) -> np.ndarray:
    """Softmax estable por filas."""
    e = np.exp(s - s.max(axis=-1, keepdims=True))              # (n, n)
    return e / e.sum(axis=-1, keepdims=True)


def gelu(x: np.ndarray) -> np.ndarray:
    """GELU con la aproximación tanh de GPT-2."""
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))


def bloque_pre_ln(x: np.ndarray, p: dict[str, np.ndarray], eps: float = EPS) -> np.ndarray:
    """h = x + Atn(LN(x));  y = h + MLP(LN(h)), con una cabeza y sin máscara."""
    a = layernorm(x, eps, p["g1"], p["b1"])                                 # (n, d)
    q, k, v = a @ p["W_Q"], a @ p["W_K"], a @ p["W_V"]                      # (n, d) cada una
    atn = softmax_filas(q @ k.T / np.sqrt(q.shape[1])) @ v                  # (n, d)
    ### BEGIN SOLUTION
    h = x + atn @ p["W_O"] + p["b_O"]                                       # residual 1, (n, d)
    m = layernorm(h, eps, p["g2"], p["b2"])                                 # (n, d)
    y = h + gelu(m @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]             # residual 2, (n, d)
    ### END SOLUTION
    return y


def parametros_bloque(d: int) -> dict[str, tuple[int, ...]]:
    """Forma de cada tensor entrenable de un bloque GPT-2 (d_ff = 4d, con sesgos)."""
    return {
        "ln_1.peso": (d,), "ln_1.sesgo": (d,),
        "atn.W_QKV": (d, 3 * d), "atn.b_QKV": (3 * d,),
        "atn.W_O": (d, d), "atn.b_O": (d,),
        "ln_2.peso": (d,), "ln_2.sesgo": (d,),
        "mlp.W_1": (d, 4 * d), "mlp.b_1": (4 * d,),
        "mlp.W_2": (4 * d, d), "mlp.b_2": (d,),
    }


def parametros_bloque_swiglu(d: int, d_ff: int) -> dict[str, tuple[int, ...]]:
    """Forma de cada tensor de un bloque Llama: RMSNorm (solo g), atención y MLP SwiGLU sin sesgos.

    SwiGLU(x) = (SiLU(x W_puerta) ⊙ x W_arriba) W_abajo: tres matrices en lugar de dos.
    """
    return {
        "norma_atn.g": (d,),
        "atn.W_Q": (d, d), "atn.W_K": (d, d), "atn.W_V": (d, d), "atn.W_O": (d, d),
        "norma_mlp.g": (d,),
        "mlp.W_puerta": (d, d_ff), "mlp.W_arriba": (d, d_ff), "mlp.W_abajo": (d_ff, d),
    }


def d_ff_llama(d: int, multiplo: int = MULTIPLO_FFN) -> int:
    """d_ff = 2/3 · 4d (para igualar los parámetros de un MLP de 4d), redondeado hacia arriba."""
    d_ff = int(2 * (4 * d) / 3)                                # 8d/3 truncado
    return multiplo * ((d_ff + multiplo - 1) // multiplo)      # múltiplo de 256 siguiente


def contar(formas: dict[str, tuple[int, ...]]) -> int:
    """Suma de los tamaños de todos los tensores."""
    return sum(int(np.prod(f)) for f in formas.values())


def parametros_gpt2(v: int, n_ctx: int, capas: int, d: int) -> int:
    """Embeddings (el de salida atado: se cuenta una vez) + capas + LayerNorm final."""
    formas = {"wte": (v, d), "wpe": (n_ctx, d), "ln_f.peso": (d,), "ln_f.sesgo": (d,)}
    return contar(formas) + capas * contar(parametros_bloque(d))


def parametros_llama(v: int, capas: int, d: int, d_ff: int) -> int:
    """Embeddings de entrada y de salida (sin atar: se cuentan los dos) + capas + RMSNorm final."""
    formas = {"embed_tokens": (v, d), "lm_head": (d, v), "norma_final.g": (d,)}
    return contar(formas) + capas * contar(parametros_bloque_swiglu(d, d_ff))


def run(eps: float = EPS, desplazamiento: float = DESPLAZAMIENTO, escala: float = ESCALA,
        semilla: int = SEMILLA) -> dict:
    # LayerNorm y RMSNorm del vector fijo (γ = g = 1, β = 0)
    ln = layernorm(X, eps)                                       # (d,)
    rms = rmsnorm(X, eps)                                        # (d,)

    # Invariancias: desplazar todas las componentes y escalarlas por un factor positivo
    ln_desplazada = layernorm(X + desplazamiento, eps)
    rms_desplazada = rmsnorm(X + desplazamiento, eps)
    ln_inv_desp = np.max(np.abs(ln_desplazada - ln)) < TOLERANCIA_DESPLAZAMIENTO
    rms_cambia = np.max(np.abs(rms_desplazada - rms)) > TOLERANCIA_DESPLAZAMIENTO
    escala_ok = (np.max(np.abs(layernorm(escala * X, eps) - ln)) < TOLERANCIA_ESCALA
                 and np.max(np.abs(rmsnorm(escala * X, eps) - rms)) < TOLERANCIA_ESCALA)

    # Bloque pre-LN cuyas subcapas terminan en proyecciones nulas (W_O = 0, W_2 = 0, sesgos 0)
    rng = np.random.default_rng(semilla)
    d = X.shape[0]
    x_bloque = np.vstack([X, rng.normal(size=(TOKENS_BLOQUE - 1, d))])     # (n, d)
    p = {
        "g1": rng.normal(size=d), "b1": rng.normal(size=d),
        "W_Q": rng.normal(size=(d, d)), "W_K": rng.normal(size=(d, d)),
        "W_V": rng.normal(size=(d, d)), "W_O": np.zeros((d, d)), "b_O": np.zeros(d),
        "g2": rng.normal(size=d), "b2": rng.normal(size=d),
        "W_1": rng.normal(size=(d, 4 * d)), "b_1": rng.normal(size=4 * d),
        "W_2": np.zeros((4 * d, d)), "b_2": np.zeros(d),
    }
    identidad = np.max(np.abs(bloque_pre_ln(x_bloque, p, eps) - x_bloque)) < TOLERANCIA_EXACTA

    # Con una sola subcapa nula el bloque ya no es la identidad: proyecciones finales y sesgos
    # aleatorios en la otra (sorteados después, así que el bloque de arriba no cambia)
    activas = {"W_O": rng.normal(size=(d, d)), "b_O": rng.normal(size=d),
               "W_2": rng.normal(size=(4 * d, d)), "b_2": rng.normal(size=d)}
    atencion_activa = {k: activas[k] for k in ("W_O", "b_O")}
    mlp_activo = {k: activas[k] for k in ("W_2", "b_2")}
    distancia = {
        nombre: float(np.max(np.abs(bloque_pre_ln(x_bloque, {**p, **cambios}, eps) - x_bloque)))
        for nombre, cambios in (("atencion_nula", mlp_activo), ("mlp_nulo", atencion_activa),
                                ("ninguna_nula", activas))
    }

    # Conteo de parámetros tensor a tensor
    por_bloque = contar(parametros_bloque(D_MODELO))
    fraccion = por_bloque / (12 * D_MODELO ** 2)

    # El mismo d = 768 con un MLP SwiGLU sin sesgos: d_ff = 8d/3 = 2048 iguala las 8d² del MLP
    por_bloque_swiglu = contar(parametros_bloque_swiglu(D_MODELO, d_ff_llama(D_MODELO)))

    # Llama 7B tensor a tensor
    d_ff_7b = d_ff_llama(D_LLAMA)
    bloque_7b = contar(parametros_bloque_swiglu(D_LLAMA, d_ff_7b))
    total_7b = parametros_llama(VOCABULARIO_LLAMA, CAPAS_LLAMA, D_LLAMA, d_ff_7b)

    return {
        "layernorm": {"entrada": X, "salida": ln, "media": ln.mean(), "varianza": ln.var()},
        "rmsnorm": {"salida": rms, "rms": np.sqrt(np.mean(rms ** 2)),
                    "dos_tokens": rmsnorm(np.vstack([X, escala * X]), eps)},  # (2, d)
        "layernorm_invariante_a_desplazamiento": bool(ln_inv_desp),
        "rmsnorm_cambia_con_desplazamiento": bool(rms_cambia),
        "ambas_invariantes_a_escala": bool(escala_ok),
        "residual_con_subcapas_nulas_es_identidad": bool(identidad),
        "distancia_a_la_identidad": distancia,
        "parametros_por_bloque_d768": por_bloque,
        "fraccion_de_12d2": fraccion,
        "parametros_gpt2_small": parametros_gpt2(VOCABULARIO, CONTEXTO, CAPAS, D_MODELO),
        "parametros_por_bloque_swiglu_d768": por_bloque_swiglu,
        "llama_7b": {
            "d_ff": d_ff_7b,
            "parametros_por_bloque": bloque_7b,
            "parametros_totales": total_7b,
        },
    }


if __name__ == "__main__":
    try:
        from compmath.labmain import main
    except ModuleNotFoundError:  # sin el ejecutor instalado
        aviso = "error: falta compmath; instálalo en la raíz del curso: pip install ."
        raise SystemExit(aviso) from None

    main(run)
