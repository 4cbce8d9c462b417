// The course's search: reads window.COMPMATH_BUSQUEDA (a plain script, so it works from file://),
// folds the query as the index was folded (no accents, lower case) and ranks pages by where the
// words appear: title, then the lemma, then output names, then the prose.
(function () {
  "use strict";
  var indice = window.COMPMATH_BUSQUEDA || [];
  var PESOS = { ft: 8, fl: 4, fo: 3, fp: 1 };

  function plegar(texto) {
    return texto.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function puntuar(doc, palabras) {
    var total = 0;
    for (var i = 0; i < palabras.length; i++) {
      var mejor = 0;
      for (var campo in PESOS) {
        var texto = " " + doc[campo];
        if (texto.indexOf(" " + palabras[i]) >= 0 || texto.indexOf("_" + palabras[i]) >= 0) {
          mejor = Math.max(mejor, PESOS[campo]);
        } else if (texto.indexOf(palabras[i]) >= 0) {
          mejor = Math.max(mejor, PESOS[campo] / 2);
        }
      }
      if (!mejor) { return 0; }
      total += mejor;
    }
    return total;
  }

  function buscar(consulta) {
    var palabras = plegar(consulta).split(/[^a-z0-9_]+/).filter(Boolean);
    if (!palabras.length) { return []; }
    return indice
      .map(function (doc) { return { doc: doc, puntos: puntuar(doc, palabras) }; })
      .filter(function (r) { return r.puntos > 0; })
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
        var resumenDoc = document.createElement("p");
        resumenDoc.textContent = r.doc.r;
        item.appendChild(resumenDoc);
      }
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
