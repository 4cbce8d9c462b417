// The words a search found (?resaltar=…), marked in the page's main text, and the one in the
// sentence the result quoted (?frase=…) scrolled into view; loaded by sitio.js only then.
(function () {
  "use strict";
  // ?resaltar=palabras: the words a search found, marked in the page's main text
  var buscado = new URLSearchParams(window.location.search).get("resaltar");
  var principal = document.getElementById("contenido");
  if (buscado && principal) {
    var plegar = function (t) { return t.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); };
    var palabras = plegar(buscado).split(/[^a-z0-9_]+/).filter(function (p) { return p.length > 1; });
    var primera = null;
    var recorrer = document.createTreeWalker(principal, NodeFilter.SHOW_TEXT, {
      acceptNode: function (n) {
        return n.parentNode.closest("script, math, mark, svg") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
      }
    });
    var nodos = [];
    while (recorrer.nextNode()) { nodos.push(recorrer.currentNode); }
    nodos.forEach(function (nodo) {
      var texto = nodo.nodeValue;
      var plegado = plegar(texto);
      if (plegado.length !== texto.length) { return; }
      var cortes = [];
      palabras.forEach(function (p) {
        var i = plegado.indexOf(p);
        while (i >= 0) { cortes.push([i, i + p.length]); i = plegado.indexOf(p, i + p.length); }
      });
      if (!cortes.length) { return; }
      cortes.sort(function (a, b) { return a[0] - b[0]; });
      var trozo = document.createDocumentFragment();
      var hasta = 0;
      cortes.forEach(function (c) {
        if (c[0] < hasta) { return; }
        trozo.appendChild(document.createTextNode(texto.slice(hasta, c[0])));
        var marca = document.createElement("mark");
        marca.textContent = texto.slice(c[0], c[1]);
        trozo.appendChild(marca);
        primera = primera || marca;
        hasta = c[1];
      });
      trozo.appendChild(document.createTextNode(texto.slice(hasta)));
      nodo.parentNode.replaceChild(trozo, nodo);
    });
    // the result quoted a sentence (?frase=its first words): go to its block's first mark, or
    // to the block itself when its words are all in math; else to the first mark
    var frase = plegar(new URLSearchParams(window.location.search).get("frase") || "");
    var bloques = principal.querySelectorAll("p, li, dd, dt, td, th, h2, h3, figcaption");
    for (var b = 0; frase && b < bloques.length; b++) {
      if (plegar(bloques[b].textContent).replace(/\s+/g, " ").indexOf(frase) >= 0) {
        primera = bloques[b].querySelector("mark") || bloques[b];
        break;
      }
    }
    if (primera && !window.location.hash) {
      primera.scrollIntoView({ block: "center" });
      // and the keyboard goes on from there
      primera.tabIndex = -1;
      primera.focus({ preventScroll: true });
    }
  }
}());
