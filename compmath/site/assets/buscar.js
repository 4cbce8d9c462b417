// The course's search: reads window.COMPMATH_BUSQUEDA (a plain script, so it works from file://),
// folds the query as the index was folded (no accents, lower case) and ranks pages by where the
// words appear: title, then the lemma, then output names, then the prose, whole words before a
// word's beginning before a part of a word. Each result says where it matched; the page itself
// marks the words (marcar.js). A result
// quotes the page's sentence with most of the words, marked: each page's sentences are a plain
// script of their own (buscar/NOMBRE.js, readable from file://) loaded once its result is in view.
(function () {
  "use strict";
  var datos = window.COMPMATH_BUSQUEDA || { paginas: [], vocabulario: "", donde: "" };
  var CAMPOS = [["t", 8, "el título"], ["r", 4, "el lema"], ["fo", 3, "las salidas"]];

  // a Greek letter is searched by its name, as the index has it (search.py): «beta» finds β
  var GRIEGAS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma sigma tau upsilon phi chi psi omega".split(" ");
  function plegar(texto) {  // the marks of a script (MARCAS) fold to nothing
    return texto.normalize("NFKD").replace(/[\u0300-\u036f\ue000-\ue003]/g, "").toLowerCase()
      .replace(/[α-ω]/g, function (g) { return GRIEGAS[g.charCodeAt(0) - 945]; });
  }

  var paginas = datos.paginas.map(function (p) {  // [address, title, lemma, output names]
    return { u: p[0], t: p[1], r: p[2], plegado: { t: plegar(p[1]), r: plegar(p[2]), fo: p[3] } };
  });
  // the prose's vocabulary: front-coded words and, for each, the pages it is on
  function descodificar(lista) {
    var salida = [];
    var previa = "";
    (lista ? lista.split(" ") : []).forEach(function (e) {
      previa = previa.slice(0, parseInt(e[0], 36)) + e.slice(1);
      salida.push(previa);
    });
    return salida;
  }
  var palabras = descodificar(datos.vocabulario);
  var comunes = descodificar(datos.comunes);  // on most pages: found on all of them
  // each word's pages: their numbers in base 36, each datos.ancho digits wide, one after another
  var donde = datos.donde ? datos.donde.split(" ").map(function (d) {
    var en = [];
    for (var i = 0; i < d.length; i += datos.ancho) { en.push(parseInt(d.substr(i, datos.ancho), 36)); }
    return en;
  }) : [];

  // how well a word sought matches a word of a page: the whole word first (1), then the word's
  // beginning (0.6), then inside it (0.25: «codificacion» is inside «decodificacion»)
  var ENTERA = 1, COMIENZO = 0.6, DENTRO = 0.25;
  function comoPalabra(w, b) {
    if (w === b || w.split("_").indexOf(b) >= 0) { return ENTERA; }
    if (w.indexOf(b) === 0 || w.indexOf("_" + b) >= 0) { return COMIENZO; }
    return w.indexOf(b) >= 0 ? DENTRO : 0;
  }
  function enCampo(texto, palabra) {
    var mejor = 0;
    texto.split(/[^a-z0-9_]+/).forEach(function (w) { mejor = Math.max(mejor, comoPalabra(w, palabra)); });
    return mejor;
  }

  function buscar(consulta) {
    var buscadas = plegar(consulta).split(/[^a-z0-9_]+/).filter(Boolean);
    if (!buscadas.length) { return []; }
    var resultados = paginas.map(function (p) { return { doc: p, puntos: 0, campos: {}, faltan: buscadas.length }; });
    buscadas.forEach(function (b) {
      var mejor = resultados.map(function () { return 0; });
      resultados.forEach(function (r, i) {
        CAMPOS.forEach(function (c) {
          var peso = enCampo(r.doc.plegado[c[0]], b) * c[1];
          if (peso) { r.campos[c[2]] = true; mejor[i] = Math.max(mejor[i], peso); }
        });
      });
      palabras.forEach(function (w, k) {
        var peso = comoPalabra(w, b);
        if (!peso) { return; }
        donde[k].forEach(function (i) {
          var r = resultados[i];
          if (!r) { return; }
          r.campos["el texto"] = true;
          mejor[i] = Math.max(mejor[i], peso);
        });
      });
      var comun = comunes.some(function (w) { return w.indexOf(b) >= 0; });
      resultados.forEach(function (r, i) {
        if (!mejor[i] && comun) { mejor[i] = 0.25; }
        if (mejor[i]) { r.puntos += mejor[i]; r.faltan -= 1; }
      });
    });
    return resultados
      .filter(function (r) { return r.faltan === 0; })
      .sort(function (a, b) { return b.puntos - a.puntos; });
  }

  // each page's sentences in runs (a paragraph's, in order), window.COMPMATH_FRASES[url], from
  // its script once a result needs it
  var frases = window.COMPMATH_FRASES = window.COMPMATH_FRASES || {};
  var citas = [];  // the shown results' quotes: [paragraph, url, words sought]
  // a longer quote is cut around its first match, to a little more than three lines of the
  // list hold (the rest is clamped away): the quote's room is kept before it arrives (no
  // result moves when it does), and it is filled
  var LARGO = 180;
  // a word of prose: Latin letters (accented too), digits and punctuation, nothing of math
  var SUBINDICE = /[\u2080-\u209c\u1d62-\u1d6a\u2c7c]/;
  var PROSA = /^[A-Za-z0-9\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017f«»"“”'’¿?¡!.,;:()[\]\-–—…%/]+$/;

  // where the words sought are in a text, [start, end) in its letters, sorted, and how well it
  // matches: 1 a word found at a word's beginning, 0.5 inside one
  function cortes(texto, buscadas) {
    var p = "";
    var mapa = [];
    for (var j = 0; j < texto.length; j++) {
      var letra = plegar(texto[j]);  // «…» folds to three letters, a combining accent to none
      // a run of subscripts after a `_`, as the index has it (search.py): «xₜ» is «x_t»
      if (SUBINDICE.test(texto[j]) && !SUBINDICE.test(texto[j - 1] || "")) { letra = "_" + letra; }
      p += letra;
      for (var k = 0; k < letra.length; k++) { mapa.push(j); }
    }
    var hallados = [];
    var puntos = 0;
    buscadas.forEach(function (b) {
      var vista = 0;
      for (var i = p.indexOf(b); i >= 0; i = p.indexOf(b, i + b.length)) {
        hallados.push([mapa[i], mapa[i + b.length - 1] + 1]);
        var antes = /[a-z0-9]/.test(p[i - 1] || " "), despues = /[a-z0-9]/.test(p[i + b.length] || " ");
        vista = Math.max(vista, antes ? DENTRO : (despues ? COMIENZO : ENTERA));
      }
      puntos += vista;
    });
    hallados.sort(function (x, y) { return x[0] - y[0]; });
    return { cortes: hallados, puntos: puntos, texto: texto };
  }

  // A script Unicode has no letters for (W_Q, V^π, Π_(s≤t)) comes between two private marks
  // (mathtext.py's SUB_OPEN … SUP_CLOSE) and is shown as <sub> or <sup>; a piece of text opens
  // again the scripts an earlier piece left open (a <mark> may start inside one)
  var MARCAS = { "\ue000": "sub", "\ue002": "sup", "\ue001": "", "\ue003": "" };
  function escribir(destino, texto, abiertas) {
    var actual = destino;
    abiertas.forEach(function (t) { actual = actual.appendChild(document.createElement(t)); });
    var desde = 0;
    for (var i = 0; i <= texto.length; i++) {
      var marca = MARCAS[texto[i]];
      if (i < texto.length && marca === undefined) { continue; }
      if (i > desde) { actual.appendChild(document.createTextNode(texto.slice(desde, i))); }
      desde = i + 1;
      if (marca) {
        abiertas.push(marca);
        actual = actual.appendChild(document.createElement(marca));
      } else if (marca === "" && abiertas.length) {
        abiertas.pop();
        actual = actual.parentNode;
      }
    }
  }

  // the text into an element with the words sought in <mark>; a quote cut around the first one
  function marcar(destino, c, cortar) {
    var texto = c.texto;
    var desde = 0;
    var hasta = texto.length;
    var primero = c.cortes[0];
    if (cortar && hasta > LARGO) {
      // from its beginning when the first match is in its first two lines, else 60 letters
      // before that match
      desde = primero[1] <= LARGO - 60 ? 0 : Math.max(0, Math.min(primero[0] - 60, hasta - LARGO));
      hasta = Math.min(hasta, desde + LARGO);
      var blanco = texto.indexOf(" ", desde);
      if (desde && blanco >= 0 && blanco < primero[0]) { desde = blanco + 1; }
      blanco = texto.lastIndexOf(" ", hasta);
      if (hasta < texto.length && blanco > primero[1]) { hasta = blanco; }
    }
    var abiertas = [];  // the scripts open where the text has got to
    var dentro = [];  // the scripts open inside a <mark>, to go on with after it
    escribir(destino, desde ? "…" : "", abiertas);
    var puesto = desde;
    c.cortes.forEach(function (x) {
      if (x[0] < puesto || x[1] > hasta) { return; }
      escribir(destino, texto.slice(puesto, x[0]), abiertas);
      var marca = destino.appendChild(document.createElement("mark"));
      dentro = abiertas.slice();
      escribir(marca, texto.slice(x[0], x[1]), dentro);
      abiertas = dentro;
      puesto = x[1];
    });
    escribir(destino, texto.slice(puesto, hasta), abiertas);
    escribir(destino, hasta < texto.length ? "…" : "", []);
  }

  // the page's sentence with most of the words sought, the first of the best, quoted and
  // followed by the next ones of its run (its paragraph), or after the ones before it, until
  // the quote fills its three lines (kept from the start, so the results below do not move
  // when it comes, and no line of that room is left empty when the paragraph has the words)
  function citar(cita) {
    var mejor = { puntos: 0 };
    var donde = null;
    if (!frases[cita[1]]) { return; }
    frases[cita[1]].forEach(function (tramo) {
      tramo.forEach(function (f, i) {
        var c = cortes(f, cita[2]);
        if (c.puntos > mejor.puntos) { mejor = c; donde = [tramo, i]; }
      });
    });
    if (cita[0].firstChild) { return; }
    cita[0].classList.remove("pendiente");
    if (!mejor.texto) { return; }
    var tramo = donde[0], desde = donde[1], hasta = donde[1] + 1;
    var largo = function () { return tramo.slice(desde, hasta).join(" ").length; };
    while (largo() < LARGO && hasta < tramo.length) { hasta++; }
    while (largo() < LARGO && desde > 0) { desde--; }
    marcar(cita[0], cortes(tramo.slice(desde, hasta).join(" "), cita[2]), true);
    // the page marks the words and goes to this sentence: marcar.js looks for its first words
    // (up to any math, which the page shows as MathML)
    // (up to a word with a symbol, a script or a mark: the page's MathML reads otherwise)
    var inicio = [];
    mejor.texto.split(" ").every(function (w) {
      return inicio.length < 6 && PROSA.test(w) && inicio.push(w);
    });
    if (inicio.length > 1) {
      cita[0].parentNode.querySelector("a").href += "&frase=" + encodeURIComponent(inicio.join(" "));
    }
  }

  // a result's sentences are loaded once it is (nearly) in view: a search loads a few pages'
  var pedidas = {};
  function pedir(u) {
    if (pedidas[u]) { return; }
    pedidas[u] = document.createElement("script");
    pedidas[u].src = "buscar/" + u.replace(/^.*\//, "").replace(/\.html$/, ".js");
    pedidas[u].onload = function () { citas.forEach(citar); };
    document.head.appendChild(pedidas[u]);
  }
  // and once the typing pauses: a word half typed loads nothing
  var pendientes = [];
  var espera = 0;
  function pronto(u) {
    pendientes.push(u);
    clearTimeout(espera);
    espera = setTimeout(function () { pendientes.forEach(pedir); pendientes = []; }, 300);
  }
  var vigia = window.IntersectionObserver && new IntersectionObserver(function (vistas) {
    vistas.forEach(function (v) {
      if (v.isIntersecting) { vigia.unobserve(v.target); pronto(v.target.dataset.u); }
    });
  }, { rootMargin: "200px" });

  function mostrar(consulta) {
    var lista = document.getElementById("resultados");
    var resumen = document.getElementById("resumen");
    lista.textContent = "";
    citas = [];
    pendientes = [];
    if (vigia) { vigia.disconnect(); }
    if (!consulta.trim()) { resumen.textContent = ""; return; }
    LARGO = Math.max(60, Math.min(360, Math.floor(lista.clientWidth / 8) * 3));
    var encontrados = buscar(consulta);
    var buscadas = plegar(consulta).split(/[^a-z0-9_]+/).filter(function (b) { return b.length > 1; });
    resumen.textContent = encontrados.length === 1 ? "1 página encontrada"
      : encontrados.length + " páginas encontradas";
    encontrados.slice(0, 50).forEach(function (r) {
      var item = document.createElement("li");
      item.dataset.u = r.doc.u;
      var enlace = document.createElement("a");
      // the target page marks the words it was found by (sitio.js reads ?resaltar=)
      enlace.href = r.doc.u + "?resaltar=" + encodeURIComponent(consulta.trim());
      marcar(enlace, cortes(r.doc.t, buscadas));
      item.appendChild(enlace);
      if (r.doc.r) {
        var lema = document.createElement("p");
        marcar(lema, cortes(r.doc.r, buscadas));
        item.appendChild(lema);
      }
      if (r.campos["el texto"]) {
        var cita = document.createElement("p");
        cita.className = "frase pendiente";
        item.appendChild(cita);
        citas.push([cita, r.doc.u, buscadas]);
        citar(citas[citas.length - 1]);  // its sentences may be here already
        if (vigia) { vigia.observe(item); } else { pronto(r.doc.u); }
      }
      var donde = document.createElement("p");
      donde.className = "coincide";
      donde.textContent = "Aparece en " + Object.keys(r.campos).join(", ");
      item.appendChild(donde);
      lista.appendChild(item);
    });
  }

  var campo = document.getElementById("q");
  if (!campo) { return; }
  var consulta = new URLSearchParams(window.location.search).get("q") || "";
  campo.value = consulta;
  mostrar(consulta);
  campo.addEventListener("input", function () { mostrar(campo.value); });
  document.querySelector("form.busqueda").addEventListener("submit", function (evento) {
    evento.preventDefault();
    mostrar(campo.value);
  });
}());
