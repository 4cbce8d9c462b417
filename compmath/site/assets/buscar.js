// The course's search: reads window.COMPMATH_BUSQUEDA (a plain script, so it works from file://),
// folds the query as the index was folded (no accents, lower case) and ranks pages by where the
// words appear: title, then the lemma, then output names, then the prose. Each result says where
// it matched and which words of the page did; the page itself marks them (sitio.js).
(function () {
  "use strict";
  var datos = window.COMPMATH_BUSQUEDA || { paginas: [], vocabulario: "", donde: "" };
  var CAMPOS = [["t", 8, "el título"], ["r", 4, "el lema"], ["fo", 3, "las salidas"]];

  function plegar(texto) {
    return texto.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  var paginas = datos.paginas.map(function (p) {
    return { u: p.u, t: p.t, r: p.r, plegado: { t: plegar(p.t), r: plegar(p.r), fo: p.fo } };
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
  var donde = datos.donde ? datos.donde.split(" ").map(function (d) {
    return d.split(".").map(function (n) { return parseInt(n, 36); });
  }) : [];

  function enCampo(texto, palabra) {
    texto = " " + texto;
    if (texto.indexOf(" " + palabra) >= 0 || texto.indexOf("_" + palabra) >= 0) { return 1; }
    return texto.indexOf(palabra) >= 0 ? 0.5 : 0;
  }

  function buscar(consulta) {
    var buscadas = plegar(consulta).split(/[^a-z0-9_]+/).filter(Boolean);
    if (!buscadas.length) { return []; }
    var resultados = paginas.map(function (p) { return { doc: p, puntos: 0, campos: {}, vistas: {}, faltan: buscadas.length }; });
    buscadas.forEach(function (b) {
      var mejor = resultados.map(function () { return 0; });
      resultados.forEach(function (r, i) {
        CAMPOS.forEach(function (c) {
          var peso = enCampo(r.doc.plegado[c[0]], b) * c[1];
          if (peso) { r.campos[c[2]] = true; mejor[i] = Math.max(mejor[i], peso); }
        });
      });
      palabras.forEach(function (w, k) {
        var peso = w.indexOf(b) === 0 || w.indexOf("_" + b) >= 0 ? 1 : (w.indexOf(b) >= 0 ? 0.5 : 0);
        if (!peso) { return; }
        donde[k].forEach(function (i) {
          var r = resultados[i];
          if (!r) { return; }
          r.campos["el texto"] = true;
          r.vistas[w] = true;
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

  function mostrar(consulta) {
    var lista = document.getElementById("resultados");
    var resumen = document.getElementById("resumen");
    lista.textContent = "";
    if (!consulta.trim()) { resumen.textContent = ""; return; }
    var encontrados = buscar(consulta);
    resumen.textContent = encontrados.length === 1 ? "1 página encontrada"
      : encontrados.length + " páginas encontradas";
    encontrados.slice(0, 50).forEach(function (r) {
      var item = document.createElement("li");
      var enlace = document.createElement("a");
      // the target page marks the words it was found by (sitio.js reads ?resaltar=)
      enlace.href = r.doc.u + "?resaltar=" + encodeURIComponent(consulta.trim());
      enlace.textContent = r.doc.t;
      item.appendChild(enlace);
      if (r.doc.r) {
        var lema = document.createElement("p");
        lema.textContent = r.doc.r;
        item.appendChild(lema);
      }
      var donde = document.createElement("p");
      donde.className = "coincide";
      var vistas = Object.keys(r.vistas).slice(0, 6);
      donde.textContent = "Aparece en " + Object.keys(r.campos).join(", ") +
        (vistas.length ? " (" + vistas.join(", ") + ")" : "");
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
