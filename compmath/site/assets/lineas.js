// A display formula too wide for a phone's column, broken into lines (sitio.js loads this file
// the first time one does not fit even at 85 %): before a top-level relation (=, ≤, ⇔, →…),
// after a comma or at a \quad between its parts, each line as wide as the column allows, the
// next ones indented; restaurar puts the formula back whole before the next measure.
(function () {
  "use strict";
  var RELACION = /^[=≈≠≤≥<>≡∼≃≅∝⇔⟺⇒⟹⇐⟸→←↦⟶∈∉⊂⊆⊃⊇≔]$/, originales = new WeakMap();
  function corte(h) {  // 1: a line may start here (a relation); 2: after it (a comma); 3: a \quad
    var t = h.textContent.trim();
    if (h.tagName === "mo") { return RELACION.test(t) ? 1 : t === "," || t === ";" ? 2 : 0; }
    return h.tagName === "mspace" && parseFloat(h.getAttribute("width")) >= 0.9 ? 3 : 0;
  }
  function partir(m, ancho) {
    var f = m;  // the element whose children are the formula's top-level row
    while (f.children.length === 1 && /^(mrow|mstyle)$/.test(f.firstElementChild.tagName)) { f = f.firstElementChild; }
    var hijos = [].slice.call(f.children), lineas = [], inicio = 0, posible = 0, sangria = 0;
    if (hijos.some(function (h) { return h.tagName === "mtable"; })) { return; }
    var izquierda = hijos.length && hijos[0].getBoundingClientRect().left;
    hijos.forEach(function (h, i) {
      var tipo = corte(h);
      if (tipo === 1 && i > inicio) { posible = i; }
      if (h.getBoundingClientRect().right - izquierda + sangria > ancho && posible > inicio) {
        lineas.push(hijos.slice(inicio, posible));
        for (inicio = posible; inicio < hijos.length - 1 && corte(hijos[inicio]) === 3;) { inicio++; }
        izquierda = hijos[inicio].getBoundingClientRect().left;
        sangria = 16;
      }
      if (tipo > 1) { posible = i + 1; }
    });
    if (!lineas.length) { return; }
    lineas.push(hijos.slice(inicio));
    originales.set(m, [f, hijos]);
    var ns = m.namespaceURI, tabla = document.createElementNS(ns, "mtable");
    tabla.setAttribute("class", "partida");
    lineas.forEach(function (linea) {
      var tr = document.createElementNS(ns, "mtr"), td = document.createElementNS(ns, "mtd");
      linea.forEach(function (h) { if (corte(h) !== 3) { td.appendChild(h); } });
      tr.appendChild(td);
      tabla.appendChild(tr);
    });
    f.replaceChildren(tabla);
  }
  function restaurar(m) {
    var guardado = originales.get(m);
    if (guardado) { guardado[0].replaceChildren.apply(guardado[0], guardado[1]); originales.delete(m); }
  }
  window.compmathLineas = { partir: partir, restaurar: restaurar };
}());
