// A display formula too wide for a phone's column, broken into lines (sitio.js loads this file
// the first time one does not fit even at 85 %): before a top-level relation (=, ≤, ⇔, →…),
// after a comma or at a \quad between its parts, each line as wide as the column allows, the
// next ones indented. A formula written as rows of one cell each (`gathered`) has each row
// that does not fit broken the same way, into rows of its own. restaurar puts the formula back
// whole before the next measure.
(function () {
  "use strict";
  var RELACION = /^[=≈≠≤≥<>≡∼≃≅∝⇔⟺⇒⟹⇐⟸→←↦⟶∈∉⊂⊆⊃⊇≔]$/, originales = new WeakMap();
  function corte(h) {  // 1: a line may start here (a relation); 2: after it (a comma); 3: a \quad
    var t = h.textContent.trim();
    if (h.tagName === "mo") { return RELACION.test(t) ? 1 : t === "," || t === ";" ? 2 : 0; }
    return h.tagName === "mspace" && parseFloat(h.getAttribute("width")) >= 0.9 ? 3 : 0;
  }
  function fila(f) {  // the element whose children are a formula's (or a cell's) row
    while (f.children.length === 1 && /^(mrow|mstyle)$/.test(f.firstElementChild.tagName)) { f = f.firstElementChild; }
    return f;
  }
  // the row's children in lines no wider than `ancho` (the next ones `sangria` px in), or
  // null when the row fits or has nowhere to break
  function lineasDe(hijos, ancho, sangria) {
    var lineas = [], inicio = 0, posible = 0, dentro = 0;
    var izquierda = hijos.length && hijos[0].getBoundingClientRect().left;
    hijos.forEach(function (h, i) {
      var tipo = corte(h);
      if (tipo === 1 && i > inicio) { posible = i; }
      if (h.getBoundingClientRect().right - izquierda + dentro > ancho && posible > inicio) {
        lineas.push(hijos.slice(inicio, posible));
        for (inicio = posible; inicio < hijos.length - 1 && corte(hijos[inicio]) === 3;) { inicio++; }
        izquierda = hijos[inicio].getBoundingClientRect().left;
        dentro = sangria;
      }
      if (tipo > 1) { posible = i + 1; }
    });
    if (!lineas.length) { return null; }
    lineas.push(hijos.slice(inicio));
    return lineas;
  }
  function renglon(ns, linea) {  // one line as a table row of one cell (no \quad kept)
    var tr = document.createElementNS(ns, "mtr"), td = document.createElementNS(ns, "mtd");
    linea.forEach(function (h) { if (corte(h) !== 3) { td.appendChild(h); } });
    tr.appendChild(td);
    return tr;
  }
  function partir(m, ancho) {
    var f = fila(m), hijos = [].slice.call(f.children), ns = m.namespaceURI;
    var tablas = hijos.filter(function (h) { return h.tagName === "mtable"; });
    if (tablas.length) {
      if (hijos.length === 1) { partirFilas(m, tablas[0], ancho); }
      return;
    }
    var lineas = lineasDe(hijos, ancho, 16);
    if (!lineas) { return; }
    var tabla = document.createElementNS(ns, "mtable");
    tabla.setAttribute("class", "partida");
    lineas.forEach(function (linea) { tabla.appendChild(renglon(ns, linea)); });
    f.replaceChildren(tabla);
    originales.set(m, function () { f.replaceChildren.apply(f, hijos); });
  }
  // a `gathered`: rows of one cell, each centred; a row too wide becomes several rows
  function partirFilas(m, tabla, ancho) {
    var filas = [].slice.call(tabla.children), ns = m.namespaceURI, deshacer = [];
    if (!filas.every(function (tr) { return tr.tagName === "mtr" && tr.children.length === 1; })) { return; }
    filas.forEach(function (tr) {
      var celda = fila(tr.firstElementChild), hijos = [].slice.call(celda.children);
      var lineas = lineasDe(hijos, ancho, 0);
      if (!lineas) { return; }
      var nuevas = lineas.map(function (linea) { return renglon(ns, linea); });
      tr.replaceWith.apply(tr, nuevas);
      deshacer.push(function () {
        celda.replaceChildren.apply(celda, hijos);
        nuevas[0].replaceWith(tr);
        nuevas.slice(1).forEach(function (n) { n.remove(); });
      });
    });
    if (deshacer.length) {
      originales.set(m, function () { deshacer.forEach(function (d) { d(); }); });
    }
  }
  function restaurar(m) {
    var volver = originales.get(m);
    if (volver) { volver(); originales.delete(m); }
  }
  window.compmathLineas = { partir: partir, restaurar: restaurar };
}());
